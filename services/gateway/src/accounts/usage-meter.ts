import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { KV } from 'nats';
import { fromBinary, toBinary } from '@bufbuild/protobuf';
import { ErrorCode, ServiceFailure, type UsageCounters, type UsageRecord, UsageRecordSchema } from '@transmute/contracts';
import { KvBuckets, compareAndSet } from './kv-buckets';
import type { Plan } from './plans';
import { type Charge, type ChargeResult, applyCharge, countersOf, current, refundConversions, remainingBytes } from './usage-ledger';

const digest = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const decode = (value: Uint8Array | undefined): UsageRecord | undefined => (value ? fromBinary(UsageRecordSchema, value) : undefined);
const encode = (record: UsageRecord): Uint8Array => toBinary(UsageRecordSchema, record);
const usageKey = (accountId: string): string => `usage.${accountId}`;

/** A charge id's marker: applied (spent), or claimed by a request still deciding it. */
const APPLIED = 1;
const DECIDING = 2;
/** A claim older than this was left by a request that died while deciding; it may be taken over. */
const ABANDONED_CLAIM_MS = 30_000;

/**
 * Usage counters per account in NATS KV, changed only by compare-and-set:
 * concurrent charges from any replica serialise on the record's revision, so
 * the sum spent never passes the allowance.
 */
@Injectable()
export class UsageMeter {
  constructor(private readonly buckets: KvBuckets) {}

  async read(accountId: string, plan: Plan, now = new Date()): Promise<UsageCounters> {
    const entry = await (await this.buckets.get('usage')).get(usageKey(accountId));
    return countersOf(accountId, plan, current(decode(entry?.operation === 'PUT' ? entry.value : undefined), now));
  }

  /**
   * Spends `charge` or throws QUOTA_EXCEEDED naming the allowance. With a
   * `chargeId`, a repeat of an applied charge spends nothing and succeeds.
   */
  async charge(accountId: string, plan: Plan, charge: Charge, chargeId = '', now = new Date()): Promise<UsageCounters> {
    const charges = chargeId ? await this.buckets.get('charges') : undefined;
    const marker = `charge.${digest(`${accountId}/${chargeId}`)}`;
    // Claimed before spending: two deliveries of one charge cannot both spend.
    if (charges && (await this.claim(charges, marker)) === 'applied') return this.read(accountId, plan, now);
    const kv = await this.buckets.get('usage');
    const outcome = await compareAndSet<ChargeResult>(kv, usageKey(accountId), (stored) => {
      const result = applyCharge(decode(stored), plan, charge, now);
      return result.ok ? { value: encode(result.record), result } : { result };
    });
    if (!outcome.ok) {
      // A refused charge may be asked again later (e.g. after the plan grew).
      if (charges) await charges.delete(marker);
      throw new ServiceFailure(ErrorCode.QUOTA_EXCEEDED, outcome.refusal);
    }
    if (charges) await charges.put(marker, new Uint8Array([APPLIED]));
    return countersOf(accountId, plan, outcome.record);
  }

  /**
   * Takes the charge id for this request, or says it was applied already. A
   * charge another request is still deciding is neither: the caller is told
   * to come back (retryable), since that charge may yet be refused.
   */
  private async claim(charges: KV, marker: string): Promise<'claimed' | 'applied'> {
    try {
      await charges.create(marker, new Uint8Array([DECIDING]));
      return 'claimed';
    } catch {
      const existing = await charges.get(marker);
      if (existing?.operation !== 'PUT') throw ServiceFailure.unavailable('the usage store is unavailable');
      if (existing.value[0] !== DECIDING) return 'applied';
      if (Date.now() - existing.created.getTime() > ABANDONED_CLAIM_MS) {
        await charges.update(marker, new Uint8Array([DECIDING]), existing.revision);
        return 'claimed';
      }
      throw ServiceFailure.unavailable('this charge is being decided by another request; try again shortly');
    }
  }

  async refundConversions(accountId: string, conversions: number, now = new Date()): Promise<void> {
    const kv = await this.buckets.get('usage');
    await compareAndSet<undefined>(kv, usageKey(accountId), (stored) => ({ value: encode(refundConversions(decode(stored), conversions, now)), result: undefined }));
  }

  /** 402 when nothing of the monthly and additional GB allowances is left. */
  async assertBytesLeft(accountId: string, plan: Plan, now = new Date()): Promise<void> {
    const entry = await (await this.buckets.get('usage')).get(usageKey(accountId));
    const record = current(decode(entry?.operation === 'PUT' ? entry.value : undefined), now);
    if (remainingBytes(record, plan) <= 0) {
      throw new ServiceFailure(ErrorCode.QUOTA_EXCEEDED, 'monthly and additional GB allowance used up: nothing left to meter this job against');
    }
  }

  /** True exactly once per stored file: its first download, which is free. */
  async isFirstDownload(fileKey: string): Promise<boolean> {
    const kv = await this.buckets.get('downloads');
    try {
      await kv.create(`file.${digest(fileKey)}`, new Uint8Array([1]));
      return true;
    } catch (error) {
      const existing = await kv.get(`file.${digest(fileKey)}`);
      if (existing?.operation === 'PUT') return false;
      throw error;
    }
  }
}
