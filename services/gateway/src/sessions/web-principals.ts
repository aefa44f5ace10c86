import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AccountsService } from '../accounts';
import { AnonymousPrincipals, type Principal, WebPrincipalSource, principalOf } from '../auth';
import { ClientIpResolver } from '../http/client-ip.resolver';
import { CsrfTokens } from './csrf';
import { Sessions } from './sessions';

/** Rate-limit subject of a person's website requests (keys have theirs; the anonymous principal is per IP). */
export const webKeyId = (personId: string): string => `web-${personId}`;

/**
 * Lets the website's own pages call the keyed `/v1` routes without a key: a
 * request that sends back its CSRF token (header `X-CSRF-Token` = the
 * token cookie) and, when it changes state, comes from our origin, acts as the
 * signed-in person's account or, with no session, as the anonymous per-IP
 * principal. A plain API call (no token) still needs a key.
 */
@Injectable()
export class WebPrincipals extends WebPrincipalSource {
  constructor(
    private readonly csrf: CsrfTokens,
    private readonly sessions: Sessions,
    private readonly accounts: AccountsService,
    private readonly anonymous: AnonymousPrincipals,
    private readonly clientIps: ClientIpResolver,
  ) {
    super();
  }

  async principalOf(request: Request): Promise<Principal | null> {
    if (!this.csrf.hasValidToken(request)) return null;
    this.csrf.verify(request);
    const current = await this.sessions.current(request);
    if (current) return principalOf(current.account._id, webKeyId(current.person.personId), this.accounts.planOf(current.account));
    return this.anonymous.principalFor(this.clientIps.of(request));
  }
}
