import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { KV, NatsConnection } from 'nats';
import { CONVERT_FAIRNESS } from '@transmute/contracts';
import { NATS_CONNECTION, isCasConflict } from '@transmute/messaging';
import { ReadinessRegistry, SERVICE_CONFIG } from '@transmute/service-kit';
import type { OrchestratorConfig } from '../config';
import { accountToken } from './account-token';

/** An account's slots: who holds one, since when (ms). */
interface SlotRecord {
  holders: Record<string, number>;
}

const MAX_CAS_ATTEMPTS = 100;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * How many of an account's converts may run at once, across every
 * orchestrator and converter replica: one KV key per account listing the
 * tasks that hold a slot, changed only by compare-and-set, so two replicas
 * can never both take the last slot. Holding is idempotent per task (a
 * re-dispatch keeps its slot); records expire with the retention period.
 */
@Injectable()
export class ConvertSlots implements OnApplicationBootstrap {
  private bucket?: Promise<KV>;

  constructor(
    @Inject(NATS_CONNECTION) private readonly connection: NatsConnection,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<OrchestratorConfig, 'fileRetentionSeconds' | 'natsReplicas'>,
    private readonly readiness: ReadinessRegistry,
  ) {}

  /** Opened (made where missing) before the first dispatch, which must not pay for it; not ready until then. */
  onApplicationBootstrap(): void {
    this.readiness.register('convert-slots', () =>
      this.open().then(
        () => true,
        () => false,
      ),
    );
    void this.open().catch(() => undefined);
  }

  /** Takes a slot for `holder` unless `cap` are held already; true when it holds one (also when it held one before). */
  async acquire(accountId: string, holder: string, cap: number, now = Date.now()): Promise<boolean> {
    return this.change(accountId, (record) => {
      if (holder in record.holders) return { result: true };
      if (Object.keys(record.holders).length >= cap) return { result: false };
      return { result: true, next: { holders: { ...record.holders, [holder]: now } } };
    });
  }

  async release(accountId: string, holder: string): Promise<boolean> {
    return this.change(accountId, (record) => {
      if (!(holder in record.holders)) return { result: false };
      const holders = { ...record.holders };
      delete holders[holder];
      return { result: true, next: { holders } };
    });
  }

  /** Who holds the account's slots, and since when (ms). */
  async holders(accountId: string): Promise<Record<string, number>> {
    const entry = await (await this.open()).get(accountToken(accountId));
    return entry?.operation === 'PUT' ? decode(entry.value).holders : {};
  }

  /** Every account that holds a slot or did within the retention period (hex tokens). */
  async accountTokens(): Promise<string[]> {
    const tokens: string[] = [];
    for await (const key of await (await this.open()).keys()) tokens.push(key);
    return tokens;
  }

  private async change<R>(accountId: string, decide: (record: SlotRecord) => { result: R; next?: SlotRecord }): Promise<R> {
    const kv = await this.open();
    const key = accountToken(accountId);
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt += 1) {
      const entry = await kv.get(key);
      const stored = entry?.operation === 'PUT' ? decode(entry.value) : { holders: {} };
      const { result, next } = decide(stored);
      if (!next) return result;
      try {
        // A deleted key still has a revision to update from; only a key never written is created.
        if (entry) await kv.update(key, encode(next), entry.revision);
        else await kv.create(key, encode(next));
        return result;
      } catch (error) {
        // Another replica wrote first: read again, decide again.
        if (!isCasConflict(error)) throw error;
      }
    }
    throw new Error(`convert slots of ${accountId}: compare-and-set lost ${MAX_CAS_ATTEMPTS} races in a row`);
  }

  private open(): Promise<KV> {
    this.bucket ??= this.connection
      .jetstream()
      .views.kv(CONVERT_FAIRNESS.slotsBucket, { history: 1, ttl: this.config.fileRetentionSeconds * 1_000, replicas: this.config.natsReplicas })
      .catch((error: unknown) => {
        this.bucket = undefined;
        throw error;
      });
    return this.bucket;
  }
}

const encode = (record: SlotRecord) => encoder.encode(JSON.stringify(record));
const decode = (bytes: Uint8Array) => JSON.parse(decoder.decode(bytes)) as SlotRecord;
