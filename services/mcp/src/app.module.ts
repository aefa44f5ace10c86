import { type DynamicModule, Module } from '@nestjs/common';
import { NatsModule, RpcClientModule } from '@transmute/messaging';
import { type BaseConfig, ServiceKitModule } from '@transmute/service-kit';

export const SERVICE_NAME = 'mcp';

@Module({})
export class AppModule {
  static forRoot(config: BaseConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ServiceKitModule.forRoot({ serviceName: SERVICE_NAME, config }),
        NatsModule.forRoot({ url: config.natsUrl, name: SERVICE_NAME }),
        RpcClientModule.forRoot({ url: config.natsUrl, name: SERVICE_NAME }),
      ],
    };
  }
}
