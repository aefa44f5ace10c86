import { z } from 'zod';
import { type ConfigOf, envVar, positiveInt } from '@transmute/service-kit';

/** Spec: "Access / refresh token life: 1 hour / 90 days". Fixed by the contract, not configurable. */
export const ACCESS_TOKEN_TTL_SECONDS = 3_600;
export const REFRESH_TOKEN_TTL_SECONDS = 90 * 24 * 3_600;

/** The OAuth 2.1 authorization server's variables; part of the gateway's config. */
export function oauthConfig() {
  return {
    mcpPublicUrl: envVar(
      'TRANSMUTE_MCP_PUBLIC_URL',
      z.url({ protocol: /^https?$/ }).default('http://127.0.0.1:8086/mcp'),
      "The MCP server's URL as assistants reach it: the resource (RFC 8707) every OAuth token is bound to.",
    ),
    oauthCodeTtlSeconds: envVar(
      'TRANSMUTE_OAUTH_CODE_TTL_SECONDS',
      positiveInt().max(600).default(60),
      'How long an OAuth authorization code can be exchanged (at most 600 s); used once.',
    ),
  };
}

/** What the OAuth room reads of the gateway's config: its own variables and the public URL it is served at. */
export type OAuthSettings = ConfigOf<ReturnType<typeof oauthConfig>> & { publicUrl: string };
