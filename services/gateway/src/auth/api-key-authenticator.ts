/** Who is calling: every keyed request carries one, attached by ApiKeyGuard. */
export interface Principal {
  accountId: string;
  /** The API key's non-secret prefix, or `anon-<digest>` for the anonymous per-IP principal; the rate-limit subject. */
  keyId: string;
  /** The plan's name, e.g. "free". */
  plan: string;
  /** Most convert tasks one job may hold (the plan allowance); more gives 422. */
  convertAllowance: number;
  /** Requests per one-minute window for this key. */
  rateLimitPerMinute: number;
  /** The website's no-account user, identified by client IP. */
  anonymous: boolean;
}

/** What the authenticator may know of the request besides the key. */
export interface CallerContext {
  /** The client's address (socket, or X-Forwarded-For through trusted proxies). */
  clientIp: string;
}

/**
 * Turns an API key into its principal. The accounts module provides the
 * implementation (hashed keys per account, IP rules).
 */
export abstract class ApiKeyAuthenticator {
  /**
   * The key's principal, or null when the key is missing from the store or
   * wrong. Throws FORBIDDEN when the key is restricted to other addresses.
   */
  abstract authenticate(apiKey: string, caller: CallerContext): Promise<Principal | null>;
}
