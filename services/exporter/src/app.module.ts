import { type DynamicModule, Module } from '@nestjs/common';
import { guardedAgentsProvider } from '@transmute/connectors';
import { NatsModule } from '@transmute/messaging';
import { ServiceKitModule } from '@transmute/service-kit';
import { StorageModule } from '@transmute/storage';
import type { ExporterConfig } from './config';
import { EXPORT_DESTINATIONS, type ExportDestination } from './destinations/destination';
import { GcsDestination } from './destinations/gcs.destination';
import { S3Destination } from './destinations/s3.destination';
import { SftpDestination } from './destinations/sftp.destination';
import { UrlDestination } from './destinations/url.destination';
import { ExportWorker } from './export.worker';

export const SERVICE_NAME = 'exporter';

/** Every destination, one per export operation; the worker refuses to start on a duplicate. */
const DESTINATIONS = [UrlDestination, S3Destination, SftpDestination, GcsDestination];

@Module({})
export class AppModule {
  static forRoot(config: ExporterConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [ServiceKitModule.forRoot({ serviceName: SERVICE_NAME, config }), NatsModule.forService(SERVICE_NAME, config), StorageModule.forRoot(config)],
      providers: [
        guardedAgentsProvider(config),
        ...DESTINATIONS,
        { provide: EXPORT_DESTINATIONS, useFactory: (...destinations: ExportDestination[]) => destinations, inject: DESTINATIONS },
        ExportWorker,
      ],
    };
  }
}
