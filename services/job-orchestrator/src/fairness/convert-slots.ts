import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { CONVERT_FAIRNESS } from '@transmute/contracts';
import { KvBucket, KvCodecs, type KvDecision, NATS_CONNECTION } from '@transmute/messaging';
import { ReadinessRegistry, SERVICE_CONFIG } from '@transmute/service-kit';
import type { OrchestratorConfig } from '../config';
import { accountToken } from './account-token';

/** An account's slots: who holds one, since when (ms). */
interface SlotRecord {
  holders: Record<string, number>;
}

/** Every convert of a busy account takes and frees a slot on one key: many racers, so many tries. */
const MAX_CAS_ATTEMPTS = 100;
/** Accounts whose slot record this replica keeps; more than run converts at once. */
const LAST_SEEN_ACCOUNTS = 10_000;
const NO_HOLDERS: SlotRecord = { holders: {} };

/**
 * How many of an account's converts may run at once, across every
 * orchestrator and converter replica: one KV key per account listing the
 * tasks that hold a slot, changed only by compare-and-set, so two replicas
 * can never both take the last slot. Holding is idempotent per task (a
 * re-dispatch keeps its slot); records expire with the retention period.
 * A change is decided first on the record this replica last saw
 * (KvBucket's `lastSeenKeys`); a decision to change nothing is made on a
 * fresh read.
 */
@Injectable()
export class ConvertSlots implements OnApplicationBootstrap {
  private readonly slots: KvBucket<SlotRecord>;

  constructor(
    @Inject(NATS_CONNECTION) connection: NatsConnection,
    @Inject(SERVICE_CONFIG) config: Pick<OrchestratorConfig, 'fileRetentionSeconds' | 'natsReplicas'>,
    private readonly readiness: ReadinessRegistry,
  ) {
    const definition = { name: CONVERT_FAIRNESS.slotsBucket, ttlMs: config.fileRetentionSeconds * 1_000, replicas: config.natsReplicas };
    this.slots = new KvBucket(connection, definition, KvCodecs.json<SlotRecord>(), { lastSeenKeys: LAST_SEEN_ACCOUNTS });
  }

  /** Opened (made where missing) before the first dispatch, which must not pay for it; not ready until then. */
  onApplicationBootstrap(): void {
    this.readiness.register('convert-slots', () =>
      this.slots.open().then(
        () => true,
        () => false,
      ),
    );
    void this.slots.open().catch(() => undefined);
  }

  /** Takes a slot for `holder` unless `cap` are held already; true when it holds one (also when it held one before). */
  async acquire(accountId: string, holder: string, cap: number, now = Date.now()): Promise<boolean> {
    return this.change(accountId, (record) => {
      if (holder in record.holders) return { result: true };
      if (Object.keys(record.holders).length >= cap) return { result: false };
      return { result: true, write: { holders: { ...record.holders, [holder]: now } } };
    });
  }

  async release(accountId: string, holder: string): Promise<boolean> {
    return this.change(accountId, (record) => {
      if (!(holder in record.holders)) return { result: false };
      const holders = { ...record.holders };
      delete holders[holder];
      return { result: true, write: { holders } };
    });
  }

  /** Who holds the account's slots, and since when (ms). */
  async holders(accountId: string): Promise<Record<string, number>> {
    return (await this.slots.get(accountToken(accountId)))?.value.holders ?? {};
  }

  /** Every account that holds a slot or did within the retention period (hex tokens). */
  accountTokens(): Promise<string[]> {
    return this.slots.keys();
  }

  private async change<R>(accountId: string, decide: (record: SlotRecord) => KvDecision<SlotRecord, R>): Promise<R> {
    const mutation = await this.slots.mutate(accountToken(accountId), (entry) => decide(entry?.value ?? NO_HOLDERS), { maxAttempts: MAX_CAS_ATTEMPTS });
    return mutation.result;
  }
}
