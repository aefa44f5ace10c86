import { type DynamicModule, Module, type NestApplicationOptions } from '@nestjs/common';
import { NatsModule, RpcClientModule } from '@transmute/messaging';
import { ServiceKitModule } from '@transmute/service-kit';
import { StorageModule } from '@transmute/storage';
import { AccountsModule } from './accounts/accounts.module';
import { AssistantsModule } from './assistants/assistants.module';
import { AuthModule } from './auth/auth.module';
import { CatalogueModule } from './catalogue/catalogue.module';
import type { GatewayConfig } from './config';
import { DownloadsModule } from './downloads/downloads.module';
import { ErrorsModule } from './errors/errors.module';
import { ImportsModule } from './imports/imports.module';
import { EventsModule } from './events/events.module';
import { JobsModule } from './jobs/jobs.module';
import { OAuthModule } from './oauth/oauth.module';
import { OpenApiModule } from './openapi/openapi.module';
import { PeopleModule } from './people/people.module';
import { StorageRoutesModule } from './storage-routes/storage-routes.module';
import { UploadsModule } from './uploads/uploads.module';
import { WebsiteModule } from './website/website.module';

export const SERVICE_NAME = 'gateway';

/**
 * How the app must be created, wherever it is (main.ts, tests): no app-wide
 * body parser, because the storage routes stream raw request bodies and JSON
 * parsing is applied per module instead.
 */
export const GATEWAY_APP_OPTIONS = { bodyParser: false } as const satisfies NestApplicationOptions;

/** Where the website's upload forms point besides the gateway: the S3 endpoint (or AWS) with the s3 driver. */
function uploadOrigins(config: GatewayConfig): string[] {
  if (config.storageDriver !== 's3') return [];
  return config.storageS3Endpoint ? [new URL(config.storageS3Endpoint).origin] : ['https://*.amazonaws.com'];
}

@Module({})
export class AppModule {
  static forRoot(config: GatewayConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ServiceKitModule.forRoot({ serviceName: SERVICE_NAME, config }),
        // Registers NATS with /readyz; requests themselves go through the RPC client.
        NatsModule.forRoot({ url: config.natsUrl, name: SERVICE_NAME }),
        RpcClientModule.forRoot({ url: config.natsUrl, name: SERVICE_NAME }),
        StorageModule.forRoot(config),
        ErrorsModule,
        AccountsModule.forRoot(config),
        AuthModule,
        UploadsModule,
        PeopleModule,
        JobsModule,
        EventsModule,
        CatalogueModule,
        ImportsModule,
        DownloadsModule,
        OpenApiModule,
        AssistantsModule,
        OAuthModule,
        ...(config.storageDriver === 'fs' ? [StorageRoutesModule] : []),
        WebsiteModule.forRoot({ websiteDir: config.websiteDir, connectSources: uploadOrigins(config) }),
      ],
    };
  }
}
