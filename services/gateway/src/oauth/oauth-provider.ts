import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import { InvalidScopeError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OAuthClientInformationFull, OAuthTokenRevocationRequest, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import { CsrfTokens, Sessions } from '../sessions';
import type { OAuthSettings } from './oauth.config';
import { consentPageHeaders, renderConsentPage } from './consent-page';
import { OAuthClients } from './oauth-clients';
import { OAuthGrants } from './oauth-grants';
import { CONVERT_SCOPE, SUPPORTED_SCOPES } from './oauth-records';

/** How long the consent page may stay open before its answer is refused. */
const CONSENT_TTL_MS = 15 * 60_000;

/**
 * The authorization server behind the SDK's OAuth handlers (which validate
 * requests, PKCE S256 and redirect URIs): sign-in and consent on the website,
 * codes, tokens and revocation in OAuthGrants.
 */
@Injectable()
export class TransmuteOAuthProvider implements OAuthServerProvider {
  constructor(
    private readonly clients: OAuthClients,
    private readonly grants: OAuthGrants,
    private readonly sessions: Sessions,
    private readonly csrf: CsrfTokens,
    @Inject(SERVICE_CONFIG) private readonly config: OAuthSettings,
  ) {}

  get clientsStore(): OAuthRegisteredClientsStore {
    return this.clients;
  }

  /** Not signed in: to the website's sign-in, which comes back here. Signed in: the consent screen. */
  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    const resource = this.grants.resourceFor(params.resource?.href);
    const scopes = params.scopes && params.scopes.length > 0 ? params.scopes : [CONVERT_SCOPE];
    const unknown = scopes.filter((scope) => !SUPPORTED_SCOPES.includes(scope));
    if (unknown.length > 0) throw new InvalidScopeError(`unknown scope ${unknown.join(' ')}; supported: ${SUPPORTED_SCOPES.join(' ')}`);
    const request = res.req;
    const person = await this.sessions.signedIn(request);
    if (!person) {
      res.redirect(302, `/signin?next=${encodeURIComponent(request.originalUrl)}`);
      return;
    }
    const consentId = await this.grants.savePending({
      clientId: client.client_id,
      personId: person.personId,
      accountId: person.accountId,
      redirectUri: params.redirectUri,
      codeChallenge: params.codeChallenge,
      scopes,
      ...(params.state !== undefined && { state: params.state }),
      resource,
      expiresAt: Date.now() + CONSENT_TTL_MS,
    });
    const csrfFields = this.csrf.formFields(request, res);
    res.set(consentPageHeaders(params.redirectUri));
    res
      .status(200)
      .type('html')
      .send(renderConsentPage({ client, scopes, redirectUri: params.redirectUri, email: person.email, consentId, csrfFields }));
  }

  challengeForAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<string> {
    return this.grants.challengeOf(client.client_id, code);
  }

  exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string, _verifier?: string, redirectUri?: string, resource?: URL): Promise<OAuthTokens> {
    return this.grants.exchangeCode(client, code, redirectUri, resource?.href);
  }

  exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string, _scopes?: string[], resource?: URL): Promise<OAuthTokens> {
    return this.grants.refresh(client, refreshToken, resource?.href);
  }

  /** The SDK's bearer middleware's view; the MCP server itself asks over NATS (accounts.mcp.authenticate). */
  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const access = await this.grants.verifyAccess(token, this.config.mcpPublicUrl);
    if (!access) throw new InvalidTokenError('access token is invalid, expired or revoked');
    return {
      token,
      clientId: access.clientId,
      scopes: access.grant.scopes,
      expiresAt: Math.floor(access.expiresAt / 1000),
      resource: new URL(access.grant.resource),
    };
  }

  revokeToken(client: OAuthClientInformationFull, request: OAuthTokenRevocationRequest): Promise<void> {
    return this.grants.revoke(client.client_id, request.token);
  }
}
