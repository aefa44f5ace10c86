import { Module } from '@nestjs/common';
import { ConnectedAppsController } from './connected-apps.controller';
import { OAuthEndpoints } from './oauth-endpoints';
import { TransmuteOAuthProvider } from './oauth-provider';
import { OAuthTokensModule } from './oauth-tokens.module';

/**
 * The OAuth 2.1 authorization server of the MCP server: the SDK's handlers at
 * /oauth/* and the RFC 8414 metadata, sign-in and consent through the
 * sessions room's port (who is signed in, the consent form's CSRF token),
 * and the dashboard's connected applications. Owns the `oauth_*` KV buckets.
 */
@Module({
  imports: [OAuthTokensModule],
  controllers: [ConnectedAppsController],
  providers: [TransmuteOAuthProvider, OAuthEndpoints],
})
export class OAuthModule {}
