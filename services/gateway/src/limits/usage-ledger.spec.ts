import { create } from '@bufbuild/protobuf';
import { UsageRecordSchema } from '@transmute/contracts';
import { PlanCatalog } from './plans';
import { NO_BYTES_LEFT, admitJob, applyCharge, current, refundConversions } from './usage-ledger';

const free = new PlanCatalog().get('free');
const GB = 1_000_000_000;
const now = new Date('2026-11-21T10:00:00Z');
const record = (fields: Partial<{ month: string; monthlyUsedBytes: bigint; additionalUsedBytes: bigint; day: string; dailyConversionsUsed: number }>) =>
  create(UsageRecordSchema, { month: '2026-11', day: '2026-11-21', ...fields });

describe('usage ledger', () => {
  it('ships the free plan with the spec figures', () => {
    expect(free).toMatchObject({ monthlyBytes: GB, additionalBytes: GB, dailyConversions: 5 });
  });

  it.each([
    ['bytes within the monthly allowance', undefined, { bytes: 100, conversions: 0 }, { monthly: 100n, additional: 0n, daily: 0 }],
    [
      'bytes that spill into the additional allowance',
      record({ monthlyUsedBytes: BigInt(GB - 10) }),
      { bytes: 30, conversions: 0 },
      { monthly: BigInt(GB), additional: 20n, daily: 0 },
    ],
    [
      'exactly everything that is left',
      record({ monthlyUsedBytes: BigInt(GB), additionalUsedBytes: BigInt(GB - 5) }),
      { bytes: 5, conversions: 0 },
      { monthly: BigInt(GB), additional: BigInt(GB), daily: 0 },
    ],
    ['conversions up to the daily allowance', record({ dailyConversionsUsed: 3 }), { bytes: 0, conversions: 2 }, { monthly: 0n, additional: 0n, daily: 5 }],
    [
      'a new month resets monthly bytes only',
      record({ month: '2026-10', monthlyUsedBytes: 500n, additionalUsedBytes: 7n }),
      { bytes: 1, conversions: 0 },
      { monthly: 1n, additional: 7n, daily: 0 },
    ],
    ['a new day resets conversions', record({ day: '2026-11-20', dailyConversionsUsed: 5 }), { bytes: 0, conversions: 1 }, { monthly: 0n, additional: 0n, daily: 1 }],
  ])('applies %s', (_name, stored, charge, expected) => {
    const result = applyCharge(stored, free, charge, now);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect({ monthly: result.record.monthlyUsedBytes, additional: result.record.additionalUsedBytes, daily: result.record.dailyConversionsUsed }).toEqual(expected);
  });

  it.each([
    [
      'one byte too many',
      record({ monthlyUsedBytes: BigInt(GB), additionalUsedBytes: BigInt(GB - 5) }),
      { bytes: 6, conversions: 0 },
      /monthly and additional GB allowance used up/,
    ],
    ['a sixth conversion', record({ dailyConversionsUsed: 5 }), { bytes: 0, conversions: 1 }, /daily conversions allowance used up: 1 requested, 0 of 5 left/],
    ['more conversions than are left', record({ dailyConversionsUsed: 3 }), { bytes: 0, conversions: 3 }, /3 requested, 2 of 5 left/],
  ])('refuses %s and names the allowance', (_name, stored, charge, message) => {
    const result = applyCharge(stored, free, charge, now);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.refusal).toMatch(message);
  });

  it('admits a job while some GB is left, reserving its conversions', () => {
    const result = admitJob(record({ monthlyUsedBytes: BigInt(GB), additionalUsedBytes: BigInt(GB - 1), dailyConversionsUsed: 2 }), free, 3, now);
    expect(result).toMatchObject({ ok: true, record: { dailyConversionsUsed: 5, additionalUsedBytes: BigInt(GB - 1) } });
  });

  it('refuses a job once no GB is left, before counting its conversions', () => {
    expect(admitJob(record({ monthlyUsedBytes: BigInt(GB), additionalUsedBytes: BigInt(GB) }), free, 1, now)).toEqual({ ok: false, refusal: NO_BYTES_LEFT });
    // Last month's bytes do not count this month.
    expect(admitJob(record({ month: '2026-10', monthlyUsedBytes: BigInt(GB), additionalUsedBytes: BigInt(GB - 1) }), free, 1, now).ok).toBe(true);
  });

  it("refuses a job whose conversions pass today's allowance", () => {
    const result = admitJob(record({ dailyConversionsUsed: 4 }), free, 2, now);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.refusal).toMatch(/daily conversions allowance used up: 2 requested, 1 of 5 left/);
  });

  it('gives back conversions, never below zero', () => {
    expect(refundConversions(record({ dailyConversionsUsed: 2 }), 1, now).dailyConversionsUsed).toBe(1);
    expect(refundConversions(record({ dailyConversionsUsed: 0 }), 3, now).dailyConversionsUsed).toBe(0);
    expect(current(undefined, now)).toMatchObject({ month: '2026-11', day: '2026-11-21', dailyConversionsUsed: 0 });
  });
});
