import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiKeyAuthenticator, type Principal } from './api-key-authenticator';

/** The account every request made with the development key belongs to. */
export const DEV_ACCOUNT_ID = 'dev';

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/** Accepts exactly one configured key; without one, accepts nothing. */
export class DevApiKeyAuthenticator extends ApiKeyAuthenticator {
  private readonly expected: Buffer | null;

  constructor(devApiKey: string | undefined) {
    super();
    this.expected = devApiKey ? digest(devApiKey) : null;
  }

  async authenticate(apiKey: string): Promise<Principal | null> {
    if (!this.expected) return null;
    // Hashing first gives equal lengths, so the comparison time says nothing about the key.
    return timingSafeEqual(digest(apiKey), this.expected) ? { accountId: DEV_ACCOUNT_ID } : null;
  }
}
