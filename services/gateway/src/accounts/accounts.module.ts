import { type DynamicModule, Global, Module } from '@nestjs/common';
import { AccountQuota } from './account-quota';
import { AccountRepository } from './account.repository';
import { accountModels } from './account.schema';
import { AccountsRpcController } from './accounts.rpc.controller';
import { AccountsService } from './accounts.service';

const ACCOUNTS = [AccountsService, AccountQuota];

/**
 * Accounts: who keys, people and jobs belong to, the plan each is on,
 * suspension, webhook signing secrets, and the quota an account spends
 * (through the limits room). The only reader of the `accounts` collection.
 */
@Global()
@Module({})
export class AccountsModule {
  /** In the gateway: also the `accounts.*` RPC handlers. */
  static forRoot(): DynamicModule {
    return { module: AccountsModule, imports: [accountModels], controllers: [AccountsRpcController], providers: [AccountRepository, ...ACCOUNTS], exports: ACCOUNTS };
  }

  /** In the admin CLI: the same services, without RPC. */
  static forAdmin(): DynamicModule {
    return { module: AccountsModule, imports: [accountModels], providers: [AccountRepository, ...ACCOUNTS], exports: ACCOUNTS };
  }
}
