import type { UsageCounters } from '@transmute/contracts';

/** Usage counters as the website shows them (snake_case, numbers). */
export function usageView(usage: UsageCounters) {
  return {
    plan: usage.plan,
    month: usage.month,
    monthly_used_bytes: Number(usage.monthlyUsedBytes),
    monthly_allowance_bytes: Number(usage.monthlyAllowanceBytes),
    additional_used_bytes: Number(usage.additionalUsedBytes),
    additional_allowance_bytes: Number(usage.additionalAllowanceBytes),
    day: usage.day,
    daily_conversions_used: usage.dailyConversionsUsed,
    daily_conversions_allowance: usage.dailyConversionsAllowance,
  };
}
