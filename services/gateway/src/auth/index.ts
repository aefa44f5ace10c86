/** The auth room's port: principals, the ports credential checkers implement, and the guard of keyed routes. */
export { AuthModule } from './auth.module';
export { ANONYMOUS_PREFIX, type CallerContext, type Principal, anonymousAccountId, principalOf } from './principal';
export { ApiKeyAuthenticator } from './api-key-authenticator';
export { WebPrincipalSource } from './web-principal-source';
export { AnonymousPrincipals } from './anonymous-principals';
export { ApiKeyGuard, type AuthenticatedRequest, PRINCIPAL, SandboxNeedsNoKey } from './api-key.guard';
export { CurrentPrincipal } from './principal.decorator';
