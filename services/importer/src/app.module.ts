import { type DynamicModule, Module } from '@nestjs/common';
import { NatsModule } from '@transmute/messaging';
import { ServiceKitModule } from '@transmute/service-kit';
import { StorageModule } from '@transmute/storage';
import type { ImporterConfig } from './config';
import { ImportWorker } from './import.worker';
import { Base64Source } from './sources/base64.source';
import { UploadSource } from './sources/upload.source';

export const SERVICE_NAME = 'importer';

@Module({})
export class AppModule {
  static forRoot(config: ImporterConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ServiceKitModule.forRoot({ serviceName: SERVICE_NAME, config }),
        NatsModule.forRoot({ url: config.natsUrl, name: SERVICE_NAME }),
        StorageModule.forRoot(config),
      ],
      providers: [UploadSource, Base64Source, ImportWorker],
    };
  }
}
