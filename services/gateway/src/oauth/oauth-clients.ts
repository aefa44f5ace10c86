import { Injectable } from '@nestjs/common';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import { InvalidClientMetadataError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { ClientRecord } from './oauth-records';
import { OAuthStore } from './oauth-store';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const CLIENT_ID = /^[0-9a-f-]{36}$/;

/** OAuth 2.1 (2.3.1 and 8.4.2): https redirects, or http to this machine (native apps); never a fragment. */
export function redirectUriProblem(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `redirect URI ${uri} is not a URL`;
  }
  if (url.hash) return `redirect URI ${uri} must not have a fragment`;
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return null;
  // Private-use schemes of native apps (e.g. com.example.app:/callback) are allowed; script schemes are not.
  if (url.protocol !== 'http:' && /^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/.test(url.protocol)) return null;
  return `redirect URI ${uri} must use https, http to a loopback address, or a private-use scheme`;
}

/**
 * Dynamic client registration's store. Every client is registered as a
 * public client (token_endpoint_auth_method "none", PKCE): no client secret
 * is issued or kept, so nothing secret is stored in clear (RFC 7591 lets the
 * server replace the requested metadata).
 */
@Injectable()
export class OAuthClients implements OAuthRegisteredClientsStore {
  constructor(private readonly store: OAuthStore) {}

  async getClient(clientId: string): Promise<OAuthClientInformationFull | undefined> {
    if (!CLIENT_ID.test(clientId)) return undefined;
    return (await this.store.get<ClientRecord>('clients', clientId))?.value;
  }

  async registerClient(client: Omit<OAuthClientInformationFull, 'client_id' | 'client_id_issued_at'>): Promise<OAuthClientInformationFull> {
    const full = client as OAuthClientInformationFull;
    if (!full.client_id) throw new Error('the registration handler must generate client ids');
    if (full.redirect_uris.length === 0) throw new InvalidClientMetadataError('redirect_uris must name at least one redirect URI');
    for (const uri of full.redirect_uris) {
      const problem = redirectUriProblem(uri);
      if (problem) throw new InvalidClientMetadataError(problem);
    }
    const grantTypes = full.grant_types ?? ['authorization_code', 'refresh_token'];
    const unsupported = grantTypes.filter((type) => type !== 'authorization_code' && type !== 'refresh_token');
    if (unsupported.length > 0) throw new InvalidClientMetadataError(`unsupported grant_types: ${unsupported.join(', ')}`);
    const responseTypes = full.response_types ?? ['code'];
    if (responseTypes.some((type) => type !== 'code')) throw new InvalidClientMetadataError('only response_types ["code"] is supported');
    const { client_secret: _secret, client_secret_expires_at: _expiry, ...rest } = full;
    const registered: ClientRecord = {
      ...rest,
      token_endpoint_auth_method: 'none',
      grant_types: grantTypes,
      response_types: ['code'],
    };
    await this.store.put('clients', registered.client_id, registered);
    return registered;
  }
}
