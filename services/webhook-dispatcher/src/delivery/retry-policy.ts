/** What one HTTP attempt came to. `statusCode` 0: no response (refused, time-out, reset). */
export interface AttemptResult {
  statusCode: number;
  /** From `Retry-After` on a 429 or 503, in ms; undefined when absent or unreadable. */
  retryAfterMs?: number;
}

export type DeliveryState = 'pending' | 'delivered' | 'gone' | 'failed';

export type NextStep = { settle: Exclude<DeliveryState, 'pending'> } | { retryInMs: number };

/**
 * Decides what follows attempt `attempt` (1-based) of a delivery whose
 * schedule is `scheduleMs` (the delay before each attempt; the first is
 * normally 0, its length is the number of attempts):
 * - a 2xx acknowledges; a 410 stops the delivery;
 * - anything else retries after the schedule's next delay, until the
 *   attempts are spent;
 * - a `Retry-After` on 429/503 is honoured within the schedule: never sooner
 *   than the schedule's next delay, never later than its longest one.
 */
export function nextStep(result: AttemptResult, attempt: number, scheduleMs: readonly number[]): NextStep {
  if (result.statusCode >= 200 && result.statusCode < 300) return { settle: 'delivered' };
  if (result.statusCode === 410) return { settle: 'gone' };
  if (attempt >= scheduleMs.length) return { settle: 'failed' };
  const scheduled = scheduleMs[attempt] ?? 0;
  const honoursRetryAfter = (result.statusCode === 429 || result.statusCode === 503) && result.retryAfterMs !== undefined;
  if (!honoursRetryAfter) return { retryInMs: scheduled };
  const longest = Math.max(...scheduleMs);
  return { retryInMs: Math.min(Math.max(result.retryAfterMs ?? 0, scheduled), Math.max(longest, scheduled)) };
}

/** `Retry-After` is delay-seconds or an HTTP date. */
export function parseRetryAfter(value: string | undefined, now: Date): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1_000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now.getTime());
}
