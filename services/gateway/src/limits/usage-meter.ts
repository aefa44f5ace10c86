import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { ErrorCode, ServiceFailure, type UsageCounters, type UsageRecord, UsageRecordSchema } from '@transmute/contracts';
import { KvBucket, type KvCodec, KvCodecs, type KvDecision, NATS_CONNECTION } from '@transmute/messaging';
import type { Plan } from './plans';
import { type Charge, type ChargeResult, NO_BYTES_LEFT, admitJob, applyCharge, countersOf, current, refundConversions, remainingBytes } from './usage-ledger';

const digest = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const usageKey = (accountId: string): string => `usage.${accountId}`;

const WEEK_MS = 7 * 24 * 3_600_000;
/** One UsageRecord per account; kept forever (the additional allowance never resets). */
export const USAGE_BUCKET = { name: 'account_usage' };
/** Charge ids already applied, so a redelivered charge spends nothing; kept past file retention. */
export const CHARGES_BUCKET = { name: 'account_charges', ttlMs: WEEK_MS };
/** Files downloaded at least once (the first download is free). */
export const DOWNLOADS_BUCKET = { name: 'account_downloads', ttlMs: WEEK_MS };

/** A charge id's marker: applied (spent), or claimed by a request still deciding it; one byte, as stored since issue 7. */
const APPLIED = 1;
const DECIDING = 2;
const marker: KvCodec<number> = { encode: (value) => new Uint8Array([value]), decode: (bytes) => bytes[0] ?? 0 };
/** A claim older than this was left by a request that died while deciding; it may be taken over. */
const ABANDONED_CLAIM_MS = 30_000;
/** Accounts whose usage record this replica keeps; more than charge in a minute on one replica. */
const LAST_SEEN_ACCOUNTS = 10_000;

/**
 * Usage counters per account in NATS KV, changed only by compare-and-set:
 * concurrent charges from any replica serialise on the record's revision, so
 * the sum spent never passes the allowance. A change is decided on the
 * record this replica last read or wrote (KvBucket's `lastSeenKeys`), so a
 * charge that follows this replica's own check or charge costs one write; a
 * check that refuses or allows on its own always reads.
 */
@Injectable()
export class UsageMeter {
  private readonly usage: KvBucket<UsageRecord>;
  private readonly charges: KvBucket<number>;
  private readonly downloads: KvBucket<number>;

  constructor(@Inject(NATS_CONNECTION) connection: NatsConnection) {
    this.usage = new KvBucket(connection, USAGE_BUCKET, KvCodecs.proto(UsageRecordSchema), { lastSeenKeys: LAST_SEEN_ACCOUNTS });
    this.charges = new KvBucket(connection, CHARGES_BUCKET, marker);
    this.downloads = new KvBucket(connection, DOWNLOADS_BUCKET, marker);
  }

  async read(accountId: string, plan: Plan, now = new Date()): Promise<UsageCounters> {
    return countersOf(accountId, plan, current(await this.fresh(accountId), now));
  }

  /**
   * Spends `charge` or throws QUOTA_EXCEEDED naming the allowance. With a
   * `chargeId`, a repeat of an applied charge spends nothing and succeeds.
   */
  async charge(accountId: string, plan: Plan, charge: Charge, chargeId = '', now = new Date()): Promise<UsageCounters> {
    const chargeKey = chargeId ? `charge.${digest(`${accountId}/${chargeId}`)}` : undefined;
    // Claimed before spending: two deliveries of one charge cannot both spend.
    if (chargeKey && (await this.claim(chargeKey)) === 'applied') return this.read(accountId, plan, now);
    const outcome = await this.change<ChargeResult>(accountId, (stored) => {
      const result = applyCharge(stored, plan, charge, now);
      return result.ok ? { write: result.record, result } : { result };
    });
    if (!outcome.ok) {
      // A refused charge may be asked again later (e.g. after the plan grew).
      if (chargeKey) await this.charges.delete(chargeKey);
      throw new ServiceFailure(ErrorCode.QUOTA_EXCEEDED, outcome.refusal);
    }
    if (chargeKey) await this.charges.put(chargeKey, APPLIED);
    return countersOf(accountId, plan, outcome.record);
  }

  /**
   * Takes the charge id for this request, or says it was applied already. A
   * charge another request is still deciding is neither: the caller is told
   * to come back (retryable), since that charge may yet be refused.
   */
  private async claim(chargeKey: string): Promise<'claimed' | 'applied'> {
    if ((await this.charges.create(chargeKey, DECIDING)) !== null) return 'claimed';
    const existing = await this.charges.get(chargeKey);
    if (!existing) throw ServiceFailure.unavailable('the usage store is unavailable');
    if (existing.value !== DECIDING) return 'applied';
    if (Date.now() - existing.created.getTime() > ABANDONED_CLAIM_MS && (await this.charges.replace(chargeKey, DECIDING, existing.revision))) return 'claimed';
    throw ServiceFailure.unavailable('this charge is being decided by another request; try again shortly');
  }

  /**
   * Admits a new job: 402 when no GB is left, else its conversions are
   * reserved. One compare-and-set on the record this replica last saw; a
   * refusal is decided again on a fresh read (KvBucket.mutate).
   */
  async admitJob(accountId: string, plan: Plan, conversions: number, now = new Date()): Promise<void> {
    const outcome = await this.change<ChargeResult>(accountId, (stored) => {
      const result = admitJob(stored, plan, conversions, now);
      return result.ok ? { write: result.record, result } : { result };
    });
    if (!outcome.ok) throw new ServiceFailure(ErrorCode.QUOTA_EXCEEDED, outcome.refusal);
  }

  async refundConversions(accountId: string, conversions: number, now = new Date()): Promise<void> {
    await this.change(accountId, (stored) => ({ write: refundConversions(stored, conversions, now), result: undefined }));
  }

  /** 402 when nothing of the monthly and additional GB allowances is left. */
  async assertBytesLeft(accountId: string, plan: Plan, now = new Date()): Promise<void> {
    const record = current(await this.fresh(accountId), now);
    if (remainingBytes(record, plan) <= 0) throw new ServiceFailure(ErrorCode.QUOTA_EXCEEDED, NO_BYTES_LEFT);
  }

  /** The stored record, read now: a decision with no write to check it is never made on a kept one. */
  private async fresh(accountId: string): Promise<UsageRecord | undefined> {
    return (await this.usage.get(usageKey(accountId)))?.value;
  }

  /** A compare-and-set of the account's record, decided first on the one this replica last saw. */
  private async change<R>(accountId: string, decide: (stored: UsageRecord | undefined) => KvDecision<UsageRecord, R>): Promise<R> {
    return (await this.usage.mutate(usageKey(accountId), (stored) => decide(stored?.value))).result;
  }

  /** True exactly once per stored file: its first download, which is free. */
  async isFirstDownload(fileKey: string): Promise<boolean> {
    return (await this.downloads.create(`file.${digest(fileKey)}`, 1)) !== null;
  }
}
