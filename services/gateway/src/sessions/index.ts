/** The sessions room's port. */
export { SessionsModule } from './sessions.module';
export { Sessions, type SignedInPerson } from './sessions';
export { SignedIn, SignedInGuard } from './signed-in.guard';
export { CSRF_FORM_FIELD, CsrfGuard, CsrfTokens } from './csrf';
export { CookiePolicy } from './cookie-policy';
export { webKeyId } from './web-principals';
