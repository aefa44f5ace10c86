import { useEffect, useState } from 'preact/hooks';
import { type Usage, api } from '../api';

/** The caller's usage (the signed-in account's, or the anonymous per-IP principal's), reloaded when the account changes or on demand. */
export function useUsage(accountId: string | undefined): { usage: Usage | null; refresh: () => Promise<void> } {
  const [usage, setUsage] = useState<Usage | null>(null);
  const refresh = () =>
    api<{ usage: Usage }>('GET', '/web/api/usage').then(
      (answer) => setUsage(answer.usage),
      () => undefined,
    );
  useEffect(() => void refresh(), [accountId]);
  return { usage, refresh };
}

/** Bytes the caller may still convert: what is left of the monthly allowance plus the additional one. */
export function bytesLeft(usage: Usage | null): number {
  if (!usage) return Infinity;
  return Math.max(0, usage.monthly_allowance_bytes - usage.monthly_used_bytes) + Math.max(0, usage.additional_allowance_bytes - usage.additional_used_bytes);
}
