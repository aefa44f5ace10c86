import type { OAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { MCP_SCOPE } from '@transmute/contracts';

export const SUPPORTED_SCOPES = [MCP_SCOPE];

/** The spec's address, `{mcp_url}/.well-known/oauth-protected-resource`. */
export function protectedResourceMetadataUrl(mcpPublicUrl: string): string {
  return `${mcpPublicUrl.replace(/\/+$/, '')}/.well-known/oauth-protected-resource`;
}

/** RFC 9728's own address for a resource with a path: `/.well-known/oauth-protected-resource<path>`. */
export function rfc9728MetadataPath(mcpPublicUrl: string): string {
  const path = new URL(mcpPublicUrl).pathname.replace(/\/+$/, '');
  return `/.well-known/oauth-protected-resource${path}`;
}

/** RFC 9728 metadata: names the authorization server (the gateway), from which clients read every endpoint. */
export function protectedResourceMetadata(mcpPublicUrl: string, authorizationServer: string): OAuthProtectedResourceMetadata {
  return {
    resource: mcpPublicUrl,
    authorization_servers: [authorizationServer.replace(/\/+$/, '')],
    scopes_supported: SUPPORTED_SCOPES,
    bearer_methods_supported: ['header'],
    resource_name: 'Transmute file conversion',
  };
}
