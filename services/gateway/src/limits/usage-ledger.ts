import { create } from '@bufbuild/protobuf';
import { type UsageCounters, UsageCountersSchema, type UsageRecord, UsageRecordSchema } from '@transmute/contracts';
import { type Plan, formatGb } from './plans';

/** What one charge spends. */
export interface Charge {
  bytes: number;
  conversions: number;
}

export type ChargeResult = { ok: true; record: UsageRecord } | { ok: false; refusal: string };

export const monthOf = (now: Date): string => now.toISOString().slice(0, 7);
export const dayOf = (now: Date): string => now.toISOString().slice(0, 10);

/** The record as it stands at `now`: a new month empties the monthly bytes, a new day the daily conversions. */
export function current(record: UsageRecord | undefined, now: Date): UsageRecord {
  const month = monthOf(now);
  const day = dayOf(now);
  const base = record ?? create(UsageRecordSchema, {});
  return create(UsageRecordSchema, {
    month,
    monthlyUsedBytes: base.month === month ? base.monthlyUsedBytes : 0n,
    additionalUsedBytes: base.additionalUsedBytes,
    day,
    dailyConversionsUsed: base.day === day ? base.dailyConversionsUsed : 0,
  });
}

/** Bytes still spendable: what is left of the monthly allowance plus what is left of the additional one. */
export function remainingBytes(record: UsageRecord, plan: Plan): number {
  const monthly = Math.max(0, plan.monthlyBytes - Number(record.monthlyUsedBytes));
  const additional = Math.max(0, plan.additionalBytes - Number(record.additionalUsedBytes));
  return monthly + additional;
}

/**
 * Applies a charge to the current record, or refuses it whole (nothing is
 * spent then). Bytes go to the monthly allowance first and spill into the
 * additional one; conversions go to today's count.
 */
export function applyCharge(stored: UsageRecord | undefined, plan: Plan, charge: Charge, now: Date): ChargeResult {
  const record = current(stored, now);
  if (charge.conversions > 0 && record.dailyConversionsUsed + charge.conversions > plan.dailyConversions) {
    const left = Math.max(0, plan.dailyConversions - record.dailyConversionsUsed);
    return {
      ok: false,
      refusal: `daily conversions allowance used up: ${charge.conversions} requested, ${left} of ${plan.dailyConversions} left today (resets at 00:00 UTC)`,
    };
  }
  if (charge.bytes > 0) {
    const left = remainingBytes(record, plan);
    if (charge.bytes > left) {
      return {
        ok: false,
        refusal: `monthly and additional GB allowance used up: ${formatGb(charge.bytes)} needed, ${formatGb(left)} left of ${formatGb(plan.monthlyBytes)} monthly and ${formatGb(plan.additionalBytes)} additional`,
      };
    }
    const fromMonthly = Math.min(charge.bytes, Math.max(0, plan.monthlyBytes - Number(record.monthlyUsedBytes)));
    record.monthlyUsedBytes += BigInt(fromMonthly);
    record.additionalUsedBytes += BigInt(charge.bytes - fromMonthly);
  }
  record.dailyConversionsUsed += charge.conversions;
  return { ok: true, record };
}

/** Why a job is refused when nothing of the GB allowances is left. */
export const NO_BYTES_LEFT = 'monthly and additional GB allowance used up: nothing left to meter this job against';

/**
 * A new job's admission: refused while no GB is left (its files could not be
 * metered), otherwise its conversions reserved from today's allowance. One
 * decision on one record, so the check and the reservation hold together.
 */
export function admitJob(stored: UsageRecord | undefined, plan: Plan, conversions: number, now: Date): ChargeResult {
  if (remainingBytes(current(stored, now), plan) <= 0) return { ok: false, refusal: NO_BYTES_LEFT };
  return applyCharge(stored, plan, { bytes: 0, conversions }, now);
}

/** Takes back conversions reserved for a job that was then not created. */
export function refundConversions(stored: UsageRecord | undefined, conversions: number, now: Date): UsageRecord {
  const record = current(stored, now);
  record.dailyConversionsUsed = Math.max(0, record.dailyConversionsUsed - conversions);
  return record;
}

export function countersOf(accountId: string, plan: Plan, record: UsageRecord): UsageCounters {
  return create(UsageCountersSchema, {
    accountId,
    plan: plan.name,
    month: record.month,
    monthlyUsedBytes: record.monthlyUsedBytes,
    monthlyAllowanceBytes: BigInt(plan.monthlyBytes),
    additionalUsedBytes: record.additionalUsedBytes,
    additionalAllowanceBytes: BigInt(plan.additionalBytes),
    day: record.day,
    dailyConversionsUsed: record.dailyConversionsUsed,
    dailyConversionsAllowance: plan.dailyConversions,
  });
}
