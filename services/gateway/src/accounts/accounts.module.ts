import { type DynamicModule, Global, Module } from '@nestjs/common';
import { PersistenceModule } from '@transmute/persistence';
import { ApiKeyAuthenticator } from '../auth/api-key-authenticator';
import { AccountQuota } from './account-quota';
import { AccountRepository } from './account.repository';
import { accountModels } from './account.schema';
import { AccountsApiKeyAuthenticator } from '../keys/keys-api-key.authenticator';
import type { AccountsConfig } from './accounts.config';
import { AccountsRpcController } from './accounts.rpc.controller';
import { AccountsService } from './accounts.service';
import { AnonymousPrincipals } from '../auth/anonymous-principals';
import { ClientIpResolver } from '../http/client-ip.resolver';
import { DevKeyBootstrap, DevKeySeeder } from '../keys/dev-key-bootstrap';
import { KeyLastUsed } from '../keys/key-last-used';
import { RateLimiter } from '../limits/rate-limiter';
import { RequestRateLimits } from '../limits/request-rate-limits';
import { UsageMeter } from '../limits/usage-meter';

const SHARED = [DevKeySeeder, KeyLastUsed, AccountsService, AccountQuota, UsageMeter, RateLimiter, RequestRateLimits, ClientIpResolver, AnonymousPrincipals];

/**
 * Accounts, API keys, plans, usage and rate limits. The only reader of the
 * `accounts` and `api_keys` collections and of the `account_*` KV buckets.
 * Needs SERVICE_CONFIG, ReadinessRegistry and NATS_CONNECTION from the app.
 */
@Global()
@Module({})
export class AccountsModule {
  /** In the gateway: also the key authenticator, the `accounts.*` RPC handlers and the dev-key bootstrap. */
  static forRoot(config: Pick<AccountsConfig, 'mongoUri'>): DynamicModule {
    return {
      module: AccountsModule,
      imports: [PersistenceModule.forRoot(config.mongoUri), accountModels],
      controllers: [AccountsRpcController],
      providers: [AccountRepository, ...SHARED, { provide: ApiKeyAuthenticator, useClass: AccountsApiKeyAuthenticator }, DevKeyBootstrap],
      exports: [...SHARED, ApiKeyAuthenticator],
    };
  }

  /** In the admin CLI: the same services, without HTTP or RPC. */
  static forAdmin(config: Pick<AccountsConfig, 'mongoUri'>): DynamicModule {
    return {
      module: AccountsModule,
      imports: [PersistenceModule.forRoot(config.mongoUri), accountModels],
      providers: [AccountRepository, ...SHARED],
      exports: SHARED,
    };
  }
}
