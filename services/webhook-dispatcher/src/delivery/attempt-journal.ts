import { Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { Counter, register } from 'prom-client';
import { KvBucket, KvCodecs, NATS_CONNECTION } from '@transmute/messaging';
import type { StoredAttempt } from '../deliveries/delivery.schema';
import type { DeliveryState } from './retry-policy';

/** What the delivery log should hold after an attempt, kept until the log does. */
export interface JournaledAttempts {
  attempts: StoredAttempt[];
  state: DeliveryState;
  nextAttemptAt: Date | null;
}

interface StoredEntry {
  attempts: Array<Omit<StoredAttempt, 'startedAt'> & { startedAt: string }>;
  state: DeliveryState;
  nextAttemptAt: string | null;
}

/** Attempts made but not yet in the log; an entry outlives the longest time a delivery can take, then expires. */
export const ATTEMPT_JOURNAL_BUCKET = { name: 'webhook_attempt_journal', ttlMs: 48 * 3_600_000 };

const journaled =
  (register.getSingleMetric('transmute_webhook_attempts_journaled_total') as Counter | undefined) ??
  new Counter({
    name: 'transmute_webhook_attempts_journaled_total',
    help: 'Webhook attempts made whose log write failed and were kept in the attempt journal until the log took them',
  });

/**
 * The dispatcher's safety net for a side effect that happened: when the
 * delivery log (MongoDB) cannot take an attempt the receiver already got,
 * the attempt is written here (JetStream KV, another store) and the log write
 * is retried on its own at the next delivery of the message, which reads the
 * journal before anything else and never sends that attempt again.
 */
@Injectable()
export class AttemptJournal {
  private readonly bucket: KvBucket<StoredEntry>;

  constructor(@Inject(NATS_CONNECTION) connection: NatsConnection) {
    this.bucket = new KvBucket(connection, ATTEMPT_JOURNAL_BUCKET, KvCodecs.json<StoredEntry>());
  }

  async keep(deliveryId: string, entry: JournaledAttempts): Promise<void> {
    await this.bucket.put(deliveryId, {
      attempts: entry.attempts.map((attempt) => ({ ...attempt, startedAt: attempt.startedAt.toISOString() })),
      state: entry.state,
      nextAttemptAt: entry.nextAttemptAt?.toISOString() ?? null,
    });
    journaled.inc();
  }

  async find(deliveryId: string): Promise<JournaledAttempts | null> {
    const stored = (await this.bucket.get(deliveryId))?.value;
    if (!stored) return null;
    return {
      attempts: stored.attempts.map((attempt) => ({ ...attempt, startedAt: new Date(attempt.startedAt) })),
      state: stored.state,
      nextAttemptAt: stored.nextAttemptAt ? new Date(stored.nextAttemptAt) : null,
    };
  }

  async settled(deliveryId: string): Promise<void> {
    await this.bucket.delete(deliveryId);
  }
}
