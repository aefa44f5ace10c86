import { Global, Module } from '@nestjs/common';
import { WebPrincipalSource } from '../auth';
import { CookiePolicy } from './cookie-policy';
import { CsrfGuard, CsrfTokens } from './csrf';
import { SessionStore } from './session-store';
import { Sessions } from './sessions';
import { SignedInGuard } from './signed-in.guard';
import { WebPrincipals } from './web-principals';

const SESSIONS = [Sessions, SignedInGuard, CsrfTokens, CsrfGuard, CookiePolicy];

/**
 * The website's sessions: who is signed in (KV `people_sessions`, the only
 * user), the session and CSRF cookies, the signed-in guard, and the website's
 * principals for the keyed routes (the auth room's WebPrincipalSource port).
 */
@Global()
@Module({
  providers: [SessionStore, ...SESSIONS, { provide: WebPrincipalSource, useClass: WebPrincipals }],
  exports: [...SESSIONS, WebPrincipalSource],
})
export class SessionsModule {}
