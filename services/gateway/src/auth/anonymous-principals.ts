import { Injectable } from '@nestjs/common';
import { Plans } from '../limits';
import { type Principal, anonymousAccountId, principalOf } from './principal';

/**
 * The website's no-account user: one principal per client IP, on the
 * anonymous plan (its own small quota and rate limit). A plain API call never
 * gets it: ApiKeyGuard gives it only to the website's own requests (CSRF token
 * and origin, see sessions/web-principals.ts), never to a missing or wrong key.
 */
@Injectable()
export class AnonymousPrincipals {
  constructor(private readonly plans: Plans) {}

  principalFor(clientIp: string): Principal {
    const id = anonymousAccountId(clientIp);
    return principalOf(id, id, this.plans.anonymous, true);
  }
}
