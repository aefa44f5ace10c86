import { Global, Module } from '@nestjs/common';
import { ApiKeyGuard } from './api-key.guard';

/**
 * The guard of every keyed route. Its authenticator, client-IP resolver and
 * rate limits come from the global AccountsModule.
 */
@Global()
@Module({
  providers: [ApiKeyGuard],
  exports: [ApiKeyGuard],
})
export class AuthModule {}
