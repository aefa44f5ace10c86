import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { Subjects } from '@transmute/contracts';
import { InvalidatedCache, NATS_CONNECTION } from '@transmute/messaging';
import type { AccountRecord } from './account.repository';

/** A backstop only: changes are announced and count at once. */
const TTL_MS = 60_000;
const MAX_ACCOUNTS = 50_000;

/**
 * Accounts by id, held in this replica so a request does not read FerretDB;
 * a changed plan, suspension or secret is announced on
 * `Subjects.accountChanged` and dropped on every replica before the change answers.
 */
@Injectable()
export class AccountCache implements OnModuleInit, OnModuleDestroy {
  private readonly cache: InvalidatedCache<AccountRecord>;

  constructor(@Inject(NATS_CONNECTION) connection: NatsConnection) {
    this.cache = new InvalidatedCache(connection, { subject: Subjects.accountChanged, ttlMs: TTL_MS, maxEntries: MAX_ACCOUNTS });
  }

  onModuleInit(): Promise<void> {
    return this.cache.start();
  }

  onModuleDestroy(): void {
    this.cache.stop();
  }

  account(id: string, load: () => Promise<AccountRecord | null>): Promise<AccountRecord | null> {
    return this.cache.get(id, load);
  }

  changed(id: string): Promise<void> {
    return this.cache.invalidate(id);
  }
}
