import { type DynamicModule, Module, type NestApplicationOptions } from '@nestjs/common';
import { NatsModule } from '@transmute/messaging';
import { ServiceKitModule } from '@transmute/service-kit';
import { StorageModule } from '@transmute/storage';
import { PersistenceModule } from '@transmute/persistence';
import { AccountsModule } from './accounts';
import { AssistantsModule } from './assistants/assistants.module';
import { AuthModule } from './auth';
import { CatalogueModule } from './catalogue/catalogue.module';
import type { GatewayConfig } from './config';
import { DashboardModule } from './dashboard/dashboard.module';
import { DownloadsModule } from './downloads/downloads.module';
import { ErrorsModule } from './errors/errors.module';
import { ImportsModule } from './imports/imports.module';
import { EventsModule } from './events/events.module';
import { JobsModule } from './jobs/jobs.module';
import { ClientIpModule } from './http/client-ip.module';
import { KeysModule } from './keys';
import { LimitsModule } from './limits';
import { OAuthModule } from './oauth';
import { OpenApiModule } from './openapi/openapi.module';
import { PeopleModule } from './people';
import { SessionsModule } from './sessions';
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
  const clientsReach = config.storageS3PublicEndpoint || config.storageS3Endpoint;
  return clientsReach ? [new URL(clientsReach).origin] : ['https://*.amazonaws.com'];
}

@Module({})
export class AppModule {
  static forRoot(config: GatewayConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ServiceKitModule.forRoot({ serviceName: SERVICE_NAME, config }),
        // Registers NATS with /readyz; requests themselves go through the RPC client.
        NatsModule.forService(SERVICE_NAME, config),
        StorageModule.forRoot(config),
        ErrorsModule,
        // The identity rooms, each owning its data; arrows only run down this list (see docs/decisions.md).
        PersistenceModule.forRoot(config.mongoUri),
        ClientIpModule,
        LimitsModule,
        AuthModule,
        AccountsModule.forRoot(),
        KeysModule.forRoot(),
        SessionsModule,
        UploadsModule,
        PeopleModule,
        DashboardModule,
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
