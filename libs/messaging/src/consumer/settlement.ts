import { retryDelayMs } from '../retry';

/**
 * What becomes of one JetStream message, decided by a consumer's handler or
 * policy and carried out by the ConsumerRunner, the only place that acks.
 */
export type Settlement =
  /** Done: acknowledged, never delivered again. */
  | { kind: 'ack' }
  /** Not yet: delivered again after `delayMs` (nak with a delay). */
  | { kind: 'retry'; delayMs: number }
  /** Given back at once (shutdown): another worker takes it now. */
  | { kind: 'release' }
  /**
   * Not now, through no fault of the message (a full engine): delivered again
   * after `delayMs` while JetStream has deliveries left; on the last one a
   * fresh copy is queued and the spent one acknowledged, so it is never
   * failed for it.
   */
  | { kind: 'defer'; delayMs: number }
  /** Given up on: recorded in DEAD_LETTERS (with `reason`), then acknowledged. */
  | { kind: 'dead-letter'; reason: string };

export const Settle = {
  ack: (): Settlement => ({ kind: 'ack' }),
  retry: (delayMs: number): Settlement => ({ kind: 'retry', delayMs }),
  release: (): Settlement => ({ kind: 'release' }),
  defer: (delayMs: number): Settlement => ({ kind: 'defer', delayMs }),
  deadLetter: (reason: string): Settlement => ({ kind: 'dead-letter', reason }),
};

/**
 * The usual policy for a handler that threw: retry after the schedule's
 * delay for this delivery while fewer than `maxDeliver` deliveries were made,
 * then give up as a dead letter.
 */
export function retryThenDeadLetter(delaysMs: readonly number[], maxDeliver: number): (error: unknown, deliveryCount: number) => Settlement {
  return (error, deliveryCount) =>
    maxDeliver < 0 || deliveryCount < maxDeliver ? Settle.retry(retryDelayMs(delaysMs, deliveryCount)) : Settle.deadLetter(error instanceof Error ? error.message : String(error));
}
