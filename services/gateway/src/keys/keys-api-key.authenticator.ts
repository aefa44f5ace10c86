import { Injectable } from '@nestjs/common';
import { ErrorCode, ServiceFailure } from '@transmute/contracts';
import { AccountsService } from '../accounts';
import { ApiKeyAuthenticator, type CallerContext, type Principal, principalOf } from '../auth';
import { IpRuleSet } from '../http/ip-rules';
import { apiKeyMatches, apiKeyPrefix } from './api-key-secret';
import { KeyLastUsed } from './key-last-used';
import { KeysService } from './keys.service';

/**
 * Looks the key up by its prefix on every request (no cache), so a deleted
 * key or a changed plan counts at once on every replica.
 */
@Injectable()
export class KeysApiKeyAuthenticator extends ApiKeyAuthenticator {
  constructor(
    private readonly keys: KeysService,
    private readonly accounts: AccountsService,
    private readonly lastUsed: KeyLastUsed,
  ) {
    super();
  }

  async authenticate(apiKey: string, caller: CallerContext): Promise<Principal | null> {
    const prefix = apiKeyPrefix(apiKey);
    if (!prefix) return null;
    const stored = await this.keys.findKey(prefix);
    if (!stored || !apiKeyMatches(apiKey, stored.hash)) return null;
    if (stored.allowedIps.length > 0 && !new IpRuleSet(stored.allowedIps).contains(caller.clientIp)) {
      throw new ServiceFailure(ErrorCode.FORBIDDEN, 'this API key is restricted to other IP addresses');
    }
    const account = await this.accounts.findAccount(stored.accountId);
    if (!account) return null;
    if (account.suspended) throw new ServiceFailure(ErrorCode.FORBIDDEN, 'this account is suspended');
    this.lastUsed.touch(prefix);
    return principalOf(account._id, prefix, this.accounts.planOf(account));
  }
}
