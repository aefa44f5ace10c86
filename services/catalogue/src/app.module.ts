import { type DynamicModule, Module } from '@nestjs/common';
import { NatsModule } from '@transmute/messaging';
import { ServiceKitModule } from '@transmute/service-kit';
import { CatalogueRpcController } from './catalogue.rpc.controller';
import type { CatalogueConfig } from './config';
import { ManifestStore } from './manifest-store';

export const SERVICE_NAME = 'catalogue';

@Module({})
export class AppModule {
  static forRoot(config: CatalogueConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [ServiceKitModule.forRoot({ serviceName: SERVICE_NAME, config }), NatsModule.forService(SERVICE_NAME, config)],
      controllers: [CatalogueRpcController],
      providers: [ManifestStore],
    };
  }
}
