import { Inject, Injectable, Logger } from '@nestjs/common';
import { SERVICE_CONFIG } from '@transmute/service-kit';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Whether cookies carry `Secure`: always, except when the public URL is plain
 * http on a loopback host (local development, `make up`, the e2e tests),
 * where browsers would otherwise have nothing to send them over.
 */
export function cookiesMustBeSecure(publicUrl: string): boolean {
  const url = new URL(publicUrl);
  return !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
}

/**
 * The names and attributes of the website's cookies. With `Secure`, names
 * carry the `__Host-` prefix, so no subdomain or plain-http page can plant
 * them (which also keeps the double-submit CSRF token honest).
 */
@Injectable()
export class CookiePolicy {
  readonly secure: boolean;
  readonly sessionCookie: string;
  readonly csrfCookie: string;
  /** Origins whose state-changing requests are believed: the public URL's. */
  readonly publicOrigin: string;

  constructor(@Inject(SERVICE_CONFIG) config: { publicUrl: string }) {
    this.secure = cookiesMustBeSecure(config.publicUrl);
    const prefix = this.secure ? '__Host-' : '';
    this.sessionCookie = `${prefix}tm_session`;
    this.csrfCookie = `${prefix}tm_csrf`;
    this.publicOrigin = new URL(config.publicUrl).origin;
    if (this.secure && new URL(config.publicUrl).protocol === 'http:') {
      new Logger(CookiePolicy.name).warn(
        `TRANSMUTE_PUBLIC_URL ${config.publicUrl} is plain http on a non-loopback host: website cookies are Secure and browsers will not send them; serve the site over https`,
      );
    }
  }
}
