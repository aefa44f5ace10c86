import type { CallerContext, Principal } from './principal';

/**
 * Turns an API key into its principal. The keys room provides the
 * implementation (hashed keys per account, IP rules); the guard knows only this.
 */
export abstract class ApiKeyAuthenticator {
  /**
   * The key's principal, or null when the key is missing from the store or
   * wrong. Throws FORBIDDEN when the key is restricted to other addresses.
   */
  abstract authenticate(apiKey: string, caller: CallerContext): Promise<Principal | null>;
}
