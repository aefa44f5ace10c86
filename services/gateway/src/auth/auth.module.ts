import { Global, Module } from '@nestjs/common';
import { ApiKeyGuard } from './api-key.guard';
import { SandboxAccess } from './sandbox-access';

/**
 * The guard of every keyed route. Its authenticator, client-IP resolver and
 * rate limits come from the global AccountsModule.
 */
@Global()
@Module({
  providers: [ApiKeyGuard, SandboxAccess],
  exports: [ApiKeyGuard, SandboxAccess],
})
export class AuthModule {}
