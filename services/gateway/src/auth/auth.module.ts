import { Global, Module } from '@nestjs/common';
import { AnonymousPrincipals } from './anonymous-principals';
import { ApiKeyGuard } from './api-key.guard';
import { SandboxAccess } from './sandbox-access';

/**
 * How a request becomes a principal: the guard of every keyed route, and the
 * anonymous per-IP principal. The guard knows the credential checkers only
 * through their ports (ApiKeyAuthenticator, provided by the keys room;
 * WebPrincipalSource, by the sessions room), so nothing here depends on them.
 */
@Global()
@Module({
  providers: [ApiKeyGuard, AnonymousPrincipals, SandboxAccess],
  exports: [ApiKeyGuard, AnonymousPrincipals, SandboxAccess],
})
export class AuthModule {}
