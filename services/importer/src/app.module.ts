import { type DynamicModule, Module } from '@nestjs/common';
import { guardedAgentsProvider } from '@transmute/connectors';
import { NatsModule } from '@transmute/messaging';
import { ServiceKitModule } from '@transmute/service-kit';
import { StorageModule } from '@transmute/storage';
import type { ImporterConfig } from './config';
import { ImportWorker } from './import.worker';
import { Base64Source } from './sources/base64.source';
import { GcsSource } from './sources/gcs.source';
import { S3Source } from './sources/s3.source';
import { SftpSource } from './sources/sftp.source';
import { IMPORT_SOURCES, type ImportSource } from './sources/source';
import { UploadSource } from './sources/upload.source';
import { UrlSource } from './sources/url.source';

export const SERVICE_NAME = 'importer';

/** Every source, one per import operation; the worker refuses to start on a duplicate. */
const SOURCES = [UploadSource, Base64Source, UrlSource, S3Source, SftpSource, GcsSource];

@Module({})
export class AppModule {
  static forRoot(config: ImporterConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [ServiceKitModule.forRoot({ serviceName: SERVICE_NAME, config }), NatsModule.forService(SERVICE_NAME, config), StorageModule.forRoot(config)],
      providers: [guardedAgentsProvider(config), ...SOURCES, { provide: IMPORT_SOURCES, useFactory: (...sources: ImportSource[]) => sources, inject: SOURCES }, ImportWorker],
    };
  }
}
