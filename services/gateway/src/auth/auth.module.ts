import { Global, Module } from '@nestjs/common';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import type { GatewayConfig } from '../config';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { DevApiKeyAuthenticator } from './dev-api-key.authenticator';

/** API-key authentication; the accounts issue swaps the authenticator provider and nothing else. */
@Global()
@Module({
  providers: [
    {
      provide: ApiKeyAuthenticator,
      inject: [SERVICE_CONFIG],
      useFactory: (config: GatewayConfig) => new DevApiKeyAuthenticator(config.devApiKey),
    },
    ApiKeyGuard,
  ],
  exports: [ApiKeyAuthenticator, ApiKeyGuard],
})
export class AuthModule {}
