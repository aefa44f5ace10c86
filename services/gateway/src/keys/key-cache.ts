import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { Subjects } from '@transmute/contracts';
import { InvalidatedCache, NATS_CONNECTION } from '@transmute/messaging';
import type { ApiKeyRecord } from './key.repository';

/** A backstop only: deletions are announced and count at once. */
const TTL_MS = 60_000;
const MAX_KEYS = 50_000;

/**
 * API keys by prefix, held in this replica so a request does not read
 * FerretDB; a deleted or replaced key is announced on `Subjects.apiKeyChanged`
 * and dropped on every replica before the deletion answers.
 */
@Injectable()
export class KeyCache implements OnModuleInit, OnModuleDestroy {
  private readonly cache: InvalidatedCache<ApiKeyRecord>;

  constructor(@Inject(NATS_CONNECTION) connection: NatsConnection) {
    this.cache = new InvalidatedCache(connection, { subject: Subjects.apiKeyChanged, ttlMs: TTL_MS, maxEntries: MAX_KEYS });
  }

  onModuleInit(): Promise<void> {
    return this.cache.start();
  }

  onModuleDestroy(): void {
    this.cache.stop();
  }

  key(prefix: string, load: () => Promise<ApiKeyRecord | null>): Promise<ApiKeyRecord | null> {
    return this.cache.get(prefix, load);
  }

  changed(prefix: string): Promise<void> {
    return this.cache.invalidate(prefix);
  }
}
