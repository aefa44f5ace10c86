import { Module } from '@nestjs/common';
import { ConnectedAppsController } from './connected-apps.controller';
import { ConsentForms } from './consent-forms';
import { OAuthEndpoints } from './oauth-endpoints';
import { TransmuteOAuthProvider } from './oauth-provider';
import { OAuthTokensModule } from './oauth-tokens.module';
import { PeopleConsent } from './people-consent';
import { PersonSessions } from './person-sessions';

/**
 * The OAuth 2.1 authorization server of the MCP server: the SDK's handlers at
 * /oauth/* and the RFC 8414 metadata, sign-in and consent through the
 * website's people module (global), and the dashboard's connected
 * applications.
 */
@Module({
  imports: [OAuthTokensModule],
  controllers: [ConnectedAppsController],
  providers: [
    TransmuteOAuthProvider,
    OAuthEndpoints,
    PeopleConsent,
    { provide: PersonSessions, useExisting: PeopleConsent },
    { provide: ConsentForms, useExisting: PeopleConsent },
  ],
})
export class OAuthModule {}
