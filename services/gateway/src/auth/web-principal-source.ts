import type { Request } from 'express';
import type { Principal } from './principal';

/**
 * The website's way in to the keyed routes when a request carries no API key:
 * a signed-in person's session, or the anonymous per-IP principal, both only
 * for requests that prove they come from the website's own pages (CSRF token
 * and Origin). The sessions room provides it; without it only keys count.
 */
export abstract class WebPrincipalSource {
  /** The principal, or null when the request is not a website request. Throws 403 for a cross-site one. */
  abstract principalOf(request: Request): Promise<Principal | null>;
}
