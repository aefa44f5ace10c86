import { createHash } from 'node:crypto';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { InvalidGrantError, InvalidTargetError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { CLOCK, type Clock, SERVICE_CONFIG, SYSTEM_CLOCK } from '@transmute/service-kit';
import { ACCESS_TOKEN_TTL_SECONDS, type OAuthSettings, REFRESH_TOKEN_TTL_SECONDS } from './oauth.config';
import type { AccessTokenRecord, ClientRecord, CodeRecord, GrantRecord, PendingConsent, RefreshTokenRecord } from './oauth-records';
import { isSecretOf, newId, newSecret, SecretKind, secretDigest } from './oauth-secrets';
import { OAuthStore } from './oauth-store';

/** A code after its exchange: kept (CAS) until it expires, so a second use revokes what the first one got. */
interface UsedCodeRecord extends CodeRecord {
  usedByGrant?: string;
}

/** What a valid access token stands for. */
export interface VerifiedAccess {
  grant: GrantRecord;
  clientId: string;
  expiresAt: number;
}

/** A person's authorised application, as the dashboard shows it. */
export interface ConnectedApplication {
  clientId: string;
  clientName: string;
  scopes: string[];
  /** ISO 8601: first authorised, and last refreshed. */
  authorisedAt: string;
  lastUsedAt: string;
}

/** URLs compare as resources with or without a trailing slash. */
export function sameResource(a: string, b: string): boolean {
  const strip = (url: string) => url.replace(/\/+$/, '');
  return strip(a) === strip(b);
}

/** One person's grants share a key prefix: a digest, since a person id may hold characters a KV key may not. */
export function personKey(personId: string): string {
  return `p${createHash('sha256').update(personId).digest('hex').slice(0, 32)}`;
}

/**
 * Codes, grants and tokens: issuing, rotating, verifying and revoking. Every
 * token points at its grant; a grant deleted (revocation, refresh-token
 * reuse, the dashboard) takes all its tokens with it at once.
 */
@Injectable()
export class OAuthGrants {
  constructor(
    private readonly store: OAuthStore,
    @Inject(SERVICE_CONFIG) private readonly config: OAuthSettings,
    // Lifetimes (access 1 h, refresh 90 days) are decided by this clock; a test moves it.
    @Optional() @Inject(CLOCK) private readonly clock: Clock = SYSTEM_CLOCK,
  ) {}

  /** The resource a request binds its tokens to: the MCP server, the only protected resource. */
  resourceFor(requested: string | undefined): string {
    if (requested !== undefined && !sameResource(requested, this.config.mcpPublicUrl)) {
      throw new InvalidTargetError(`tokens are only issued for the MCP server ${this.config.mcpPublicUrl}`);
    }
    return this.config.mcpPublicUrl;
  }

  async savePending(consent: PendingConsent): Promise<string> {
    const id = newId();
    await this.store.put('pending', id, consent);
    return id;
  }

  /** The pending consent, once: a second answer to the same consent page finds nothing. */
  async takePending(id: string, personId: string): Promise<PendingConsent | null> {
    if (!/^[0-9a-f]{32}$/.test(id)) return null;
    const found = await this.store.get<PendingConsent>('pending', id);
    if (!found || found.value.personId !== personId || found.value.expiresAt < this.clock.now()) return null;
    return (await this.store.consume('pending', id, found.revision)) ? found.value : null;
  }

  async issueCode(consent: PendingConsent): Promise<string> {
    const code = newSecret(SecretKind.authorizationCode);
    const record: CodeRecord = {
      clientId: consent.clientId,
      personId: consent.personId,
      accountId: consent.accountId,
      redirectUri: consent.redirectUri,
      codeChallenge: consent.codeChallenge,
      scopes: consent.scopes,
      resource: consent.resource,
      expiresAt: this.clock.now() + this.config.oauthCodeTtlSeconds * 1000,
    };
    await this.store.put('codes', secretDigest(code), record);
    return code;
  }

  /** The PKCE challenge of a live, unused code of this client. */
  async challengeOf(clientId: string, code: string): Promise<string> {
    return (await this.liveCode(clientId, code)).value.codeChallenge;
  }

  async exchangeCode(client: ClientRecord, code: string, redirectUri: string | undefined, resource: string | undefined): Promise<OAuthTokens> {
    const { value: record, revision } = await this.liveCode(client.client_id, code);
    if (redirectUri !== undefined && redirectUri !== record.redirectUri) {
      throw new InvalidGrantError('redirect_uri differs from the one the code was issued for');
    }
    if (resource !== undefined && !sameResource(resource, record.resource)) {
      throw new InvalidTargetError(`the code was issued for ${record.resource}`);
    }
    const now = this.clock.now();
    const grant: GrantRecord = {
      grantId: newId(),
      personId: record.personId,
      accountId: record.accountId,
      clientId: client.client_id,
      clientName: client.client_name ?? client.client_id,
      scopes: record.scopes,
      resource: record.resource,
      createdAt: now,
      refreshedAt: now,
    };
    const grantKey = `${personKey(record.personId)}.${grant.grantId}`;
    // Marking the code used is the compare-and-set that lets exactly one exchange through.
    const used: UsedCodeRecord = { ...record, usedByGrant: grantKey };
    if (!(await this.store.replace('codes', secretDigest(code), used, revision))) {
      throw new InvalidGrantError('authorization code already used');
    }
    await this.store.put('grants', grantKey, grant);
    return this.issueTokens(grantKey, grant);
  }

  /** Rotation: the presented refresh token is spent, a new pair is issued under the same grant. */
  async refresh(client: ClientRecord, refreshToken: string, resource: string | undefined): Promise<OAuthTokens> {
    const refused = new InvalidGrantError('refresh token is invalid, expired or revoked');
    if (!isSecretOf(SecretKind.refreshToken, refreshToken)) throw refused;
    const digest = secretDigest(refreshToken);
    const found = await this.store.get<RefreshTokenRecord>('refreshTokens', digest);
    if (!found || found.value.clientId !== client.client_id || found.value.expiresAt < this.clock.now()) throw refused;
    if (found.value.rotated) {
      // A spent refresh token came back: it leaked. OAuth 2.1 (4.3.1): end the whole grant.
      await this.store.delete('grants', found.value.grantKey);
      throw refused;
    }
    const grant = await this.store.get<GrantRecord>('grants', found.value.grantKey);
    if (!grant) throw refused;
    if (resource !== undefined && !sameResource(resource, grant.value.resource)) {
      throw new InvalidTargetError(`the grant is for ${grant.value.resource}`);
    }
    if (!(await this.store.replace('refreshTokens', digest, { ...found.value, rotated: true }, found.revision))) throw refused;
    // Touching the grant by compare-and-set: a revocation racing this refresh wins, the grant is not brought back.
    const touched = { ...grant.value, refreshedAt: this.clock.now() };
    if (!(await this.store.replace('grants', found.value.grantKey, touched, grant.revision))) throw refused;
    return this.issueTokens(found.value.grantKey, touched);
  }

  /**
   * RFC 7009: a refresh token ends its grant (and so every token issued from
   * it); an access token ends itself. Unknown tokens are not an error.
   */
  async revoke(clientId: string, token: string): Promise<void> {
    if (isSecretOf(SecretKind.refreshToken, token)) {
      const found = await this.store.get<RefreshTokenRecord>('refreshTokens', secretDigest(token));
      if (!found || found.value.clientId !== clientId) return;
      await this.store.delete('grants', found.value.grantKey);
      await this.store.delete('refreshTokens', secretDigest(token));
    } else if (isSecretOf(SecretKind.accessToken, token)) {
      const found = await this.store.get<AccessTokenRecord>('accessTokens', secretDigest(token));
      if (!found || found.value.clientId !== clientId) return;
      await this.store.delete('accessTokens', secretDigest(token));
    }
  }

  /** A live access token bound to `resource` whose grant still stands; null otherwise. */
  async verifyAccess(token: string, resource: string): Promise<VerifiedAccess | null> {
    if (!isSecretOf(SecretKind.accessToken, token)) return null;
    const found = await this.store.get<AccessTokenRecord>('accessTokens', secretDigest(token));
    if (!found || found.value.expiresAt < this.clock.now()) return null;
    const grant = await this.store.get<GrantRecord>('grants', found.value.grantKey);
    if (!grant || !sameResource(grant.value.resource, resource)) return null;
    return { grant: grant.value, clientId: found.value.clientId, expiresAt: found.value.expiresAt };
  }

  /** The person's authorised applications, one entry per client (its grants merged). */
  async connectedApplications(personId: string): Promise<ConnectedApplication[]> {
    const byClient = new Map<string, ConnectedApplication>();
    for (const grant of await this.grantsOf(personId)) {
      const known = byClient.get(grant.clientId);
      const authorisedAt = new Date(Math.min(grant.createdAt, known ? Date.parse(known.authorisedAt) : Infinity)).toISOString();
      const lastUsedAt = new Date(Math.max(grant.refreshedAt, known ? Date.parse(known.lastUsedAt) : 0)).toISOString();
      const scopes = [...new Set([...(known?.scopes ?? []), ...grant.scopes])];
      byClient.set(grant.clientId, { clientId: grant.clientId, clientName: grant.clientName, scopes, authorisedAt, lastUsedAt });
    }
    return [...byClient.values()].sort((a, b) => b.lastUsedAt.localeCompare(a.lastUsedAt));
  }

  /** Ends every grant the person gave this client; false when there was none. */
  async disconnect(personId: string, clientId: string): Promise<boolean> {
    const prefix = personKey(personId);
    const keys = await this.store.keys('grants', `${prefix}.*`);
    let removed = false;
    for (const key of keys) {
      const grant = await this.store.get<GrantRecord>('grants', key);
      if (grant?.value.clientId !== clientId) continue;
      await this.store.delete('grants', key);
      removed = true;
    }
    return removed;
  }

  private async grantsOf(personId: string): Promise<GrantRecord[]> {
    const keys = await this.store.keys('grants', `${personKey(personId)}.*`);
    const grants = await Promise.all(keys.map((key) => this.store.get<GrantRecord>('grants', key)));
    return grants.flatMap((grant) => (grant ? [grant.value] : []));
  }

  private async liveCode(clientId: string, code: string) {
    const refused = new InvalidGrantError('authorization code is invalid or expired');
    if (!isSecretOf(SecretKind.authorizationCode, code)) throw refused;
    const found = await this.store.get<UsedCodeRecord>('codes', secretDigest(code));
    if (!found || found.value.clientId !== clientId || found.value.expiresAt < this.clock.now()) throw refused;
    if (found.value.usedByGrant) {
      // RFC 6749 4.1.2 / OAuth 2.1: a code used twice revokes what it was exchanged for.
      await this.store.delete('grants', found.value.usedByGrant);
      throw new InvalidGrantError('authorization code already used; the tokens issued for it are revoked');
    }
    return found;
  }

  private async issueTokens(grantKey: string, grant: GrantRecord): Promise<OAuthTokens> {
    const now = this.clock.now();
    const accessToken = newSecret(SecretKind.accessToken);
    const refreshToken = newSecret(SecretKind.refreshToken);
    const access: AccessTokenRecord = { grantKey, clientId: grant.clientId, expiresAt: now + ACCESS_TOKEN_TTL_SECONDS * 1000 };
    const refresh: RefreshTokenRecord = { grantKey, clientId: grant.clientId, expiresAt: now + REFRESH_TOKEN_TTL_SECONDS * 1000, rotated: false };
    await this.store.put('refreshTokens', secretDigest(refreshToken), refresh);
    await this.store.put('accessTokens', secretDigest(accessToken), access);
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
      refresh_token: refreshToken,
      scope: grant.scopes.join(' '),
    };
  }
}
