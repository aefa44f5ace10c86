import { Module } from '@nestjs/common';
import { OAuthClients } from './oauth-clients';
import { OAuthGrants } from './oauth-grants';
import { OAuthStore } from './oauth-store';

/**
 * OAuth clients, grants and tokens in JetStream KV (digests only): what the
 * authorization server writes and what verifying an MCP caller reads.
 */
@Module({
  providers: [OAuthStore, OAuthClients, OAuthGrants],
  exports: [OAuthClients, OAuthGrants],
})
export class OAuthTokensModule {}
