import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Principal } from './api-key-authenticator';
import { ANONYMOUS_PREFIX, AccountsService } from '../accounts/accounts.service';
import { principalOf } from '../keys/keys-api-key.authenticator';

/** Anonymous account ids: `anon-` and a digest of the client IP (the IP itself is not kept). */
export function anonymousAccountId(clientIp: string): string {
  return `${ANONYMOUS_PREFIX}${createHash('sha256').update(clientIp, 'utf8').digest('hex').slice(0, 32)}`;
}

/**
 * The website's no-account user: one principal per client IP, on the
 * anonymous plan (its own small quota and rate limit). A plain API call never
 * gets it: ApiKeyGuard gives it only to the website's own requests (CSRF token
 * and origin, see people/web-principals.ts), never to a missing or wrong key.
 */
@Injectable()
export class AnonymousPrincipals {
  constructor(private readonly accounts: AccountsService) {}

  principalFor(clientIp: string): Principal {
    const id = anonymousAccountId(clientIp);
    return principalOf(id, id, this.accounts.anonymousPlan, true);
  }
}
