import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import { AccountsService } from '../accounts';
import { Plans } from '../limits';
import { apiKeyPrefix, hashApiKey } from './api-key-secret';
import { KeysService } from './keys.service';

/** What the development bootstrap reads: the key, if any. */
export interface DevKeyConfig {
  devApiKey?: string | undefined;
}

/** The account the development key belongs to. */
export const DEV_ACCOUNT_ID = 'dev';

/**
 * Development only: makes sure account "dev" exists (on TRANSMUTE_DEV_ACCOUNT_PLAN)
 * and that TRANSMUTE_DEV_API_KEY opens it. Idempotent. Used by the gateway at
 * start-up and by `transmute-admin seed-dev` (make up).
 */
@Injectable()
export class DevKeySeeder {
  constructor(
    private readonly accounts: AccountsService,
    private readonly keys: KeysService,
    private readonly plans: Plans,
    @Inject(SERVICE_CONFIG) private readonly config: DevKeyConfig,
  ) {}

  /** The seeded key's prefix, or null when no development key is configured. */
  async seed(): Promise<{ accountId: string; keyPrefix: string } | null> {
    const key = this.config.devApiKey;
    if (!key) return null;
    const prefix = apiKeyPrefix(key);
    if (!prefix) throw new Error('TRANSMUTE_DEV_API_KEY must look like tm_<prefix>_<secret> (letters and digits)');
    await this.accounts.createAccount({ id: DEV_ACCOUNT_ID, name: 'development', plan: this.plans.devAccount.name }, { ifAbsent: true });
    await this.keys.importKey(DEV_ACCOUNT_ID, prefix, hashApiKey(key), 'development key (TRANSMUTE_DEV_API_KEY)');
    return { accountId: DEV_ACCOUNT_ID, keyPrefix: prefix };
  }
}

/**
 * With TRANSMUTE_DEV_API_KEY set, a fresh local platform (make up, e2e
 * fixtures) has a working key without an operator. Production leaves the
 * variable unset and creates keys with transmute-admin.
 */
@Injectable()
export class DevKeyBootstrap implements OnApplicationBootstrap {
  private readonly logger = new Logger(DevKeyBootstrap.name);

  constructor(private readonly seeder: DevKeySeeder) {}

  async onApplicationBootstrap(): Promise<void> {
    const seeded = await this.seeder.seed();
    if (seeded) this.logger.log(seeded, 'development key registered');
  }
}
