/** Who is calling: every keyed request carries one, attached by ApiKeyGuard. */
export interface Principal {
  accountId: string;
}

/**
 * Turns an API key into its principal. The accounts module will provide the
 * real one (hashed keys per account, IP rules); until then DevApiKeyAuthenticator
 * accepts the single development key.
 */
export abstract class ApiKeyAuthenticator {
  /** The key's principal, or null when the key is unknown. */
  abstract authenticate(apiKey: string): Promise<Principal | null>;
}
