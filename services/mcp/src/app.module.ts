import { type DynamicModule, Module } from '@nestjs/common';
import { NatsModule } from '@transmute/messaging';
import { ServiceKitModule } from '@transmute/service-kit';
import type { McpConfig } from './config';
import { McpEndpoint } from './http/mcp-endpoint';
import { PlatformClient } from './platform/platform-client';

export const SERVICE_NAME = 'mcp';

@Module({})
export class AppModule {
  static forRoot(config: McpConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [ServiceKitModule.forRoot({ serviceName: SERVICE_NAME, config }), NatsModule.forService(SERVICE_NAME, config)],
      providers: [PlatformClient, McpEndpoint],
    };
  }
}
