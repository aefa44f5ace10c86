import { type DynamicModule, Module } from '@nestjs/common';
import { NatsModule } from '@transmute/messaging';
import { ServiceKitModule } from '@transmute/service-kit';
import type { ExporterConfig } from './config';
import { UrlDestination } from './destinations/url.destination';
import { ExportWorker } from './export.worker';

export const SERVICE_NAME = 'exporter';

@Module({})
export class AppModule {
  static forRoot(config: ExporterConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [ServiceKitModule.forRoot({ serviceName: SERVICE_NAME, config }), NatsModule.forRoot({ url: config.natsUrl, name: SERVICE_NAME })],
      providers: [UrlDestination, ExportWorker],
    };
  }
}
