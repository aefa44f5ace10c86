/** The OAuth room's port: what verifying an MCP caller needs. */
export { OAuthModule } from './oauth.module';
export { OAuthTokensModule } from './oauth-tokens.module';
export { OAuthGrants } from './oauth-grants';
export { OAuthClients } from './oauth-clients';
export { isAccessToken } from './oauth-secrets';
