import type { OAuthMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { SUPPORTED_SCOPES } from './oauth-records';

export const OAUTH_PATHS = {
  authorize: '/oauth/authorize',
  token: '/oauth/token',
  register: '/oauth/register',
  revoke: '/oauth/revoke',
  /** RFC 8414 metadata of an issuer without a path. */
  metadata: '/.well-known/oauth-authorization-server',
} as const;

/** RFC 8414 authorization-server metadata; PKCE S256 only, public clients only. */
export function authorizationServerMetadata(issuer: string): OAuthMetadata {
  const base = issuer.replace(/\/+$/, '');
  return {
    issuer: base,
    authorization_endpoint: `${base}${OAUTH_PATHS.authorize}`,
    token_endpoint: `${base}${OAUTH_PATHS.token}`,
    registration_endpoint: `${base}${OAUTH_PATHS.register}`,
    revocation_endpoint: `${base}${OAUTH_PATHS.revoke}`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    scopes_supported: SUPPORTED_SCOPES,
  };
}
