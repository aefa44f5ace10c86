import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import { MCP_SCOPE } from '@transmute/contracts';

/** The one scope: what a connected application may do, as the consent screen says it. */
export const CONVERT_SCOPE = MCP_SCOPE;
export const SCOPE_DESCRIPTIONS: Record<string, string> = {
  [CONVERT_SCOPE]: 'list the formats, convert files from public URLs with your account (using its quota), and read your jobs and their download links',
};
export const SUPPORTED_SCOPES = Object.keys(SCOPE_DESCRIPTIONS);

export type ClientRecord = OAuthClientInformationFull;

/** What the authorize request asked, kept between the consent page and the person's answer. */
export interface PendingConsent {
  clientId: string;
  personId: string;
  accountId: string;
  redirectUri: string;
  codeChallenge: string;
  scopes: string[];
  state?: string;
  resource: string;
  expiresAt: number;
}

/** An authorization code (stored under its digest), exchanged once. */
export interface CodeRecord {
  clientId: string;
  personId: string;
  accountId: string;
  redirectUri: string;
  codeChallenge: string;
  scopes: string[];
  resource: string;
  expiresAt: number;
}

/**
 * A person's authorisation of one client: the family of one refresh-token
 * chain. Every access and refresh token points at its grant; deleting the
 * grant kills them all at once (verification reads it each time).
 */
export interface GrantRecord {
  grantId: string;
  personId: string;
  accountId: string;
  clientId: string;
  clientName: string;
  scopes: string[];
  resource: string;
  createdAt: number;
  /** Last refresh, for the dashboard ("last used"). */
  refreshedAt: number;
}

export interface RefreshTokenRecord {
  grantKey: string;
  clientId: string;
  expiresAt: number;
  /** Set when the token was exchanged; presenting it again means it leaked, and the grant is revoked. */
  rotated: boolean;
}

export interface AccessTokenRecord {
  grantKey: string;
  clientId: string;
  expiresAt: number;
}
