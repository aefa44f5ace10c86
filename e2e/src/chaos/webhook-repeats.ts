import type { FaultRecord } from './fault-injector';
import type { ReceivedWebhook } from './loopback-servers';

/**
 * How long before a dispatcher's kill a first receipt may be and still be an
 * attempt the killed dispatcher had not recorded yet: its receiver answered,
 * the log write had not happened.
 */
export const UNRECORDED_ATTEMPT_WINDOW_MS = 5_000;

export interface WebhookRepeats {
  /** Delivery ids received more than once that no dispatcher kill explains: must be 0. */
  unexplained: string[];
  /**
   * The same attempt received again, first received just before the
   * dispatcher was killed: the at-least-once case docs/webhooks.md promises
   * and receivers de-duplicate by X-Service-Delivery.
   */
  resentAfterDispatcherKill: string[];
}

/** Sorts every delivery id the receiver acknowledged more than once into explained and unexplained repeats. */
export function webhookRepeats(received: readonly ReceivedWebhook[], faults: readonly FaultRecord[]): WebhookRepeats {
  const dispatcherKills = faults.filter((fault) => fault.fault === 'webhook-dispatcher').map((fault) => fault.killedAt);
  const byDelivery = new Map<string, ReceivedWebhook[]>();
  for (const webhook of received) byDelivery.set(webhook.deliveryId, [...(byDelivery.get(webhook.deliveryId) ?? []), webhook]);
  const repeats: WebhookRepeats = { unexplained: [], resentAfterDispatcherKill: [] };
  for (const [deliveryId, receipts] of byDelivery) {
    if (receipts.length < 2) continue;
    const [first, ...again] = [...receipts].sort((a, b) => a.at - b.at);
    const sameAttempt = again.length === 1 && again[0]!.attempt === first!.attempt;
    const killedJustAfter = dispatcherKills.some((killedAt) => killedAt >= first!.at && killedAt - first!.at <= UNRECORDED_ATTEMPT_WINDOW_MS);
    (sameAttempt && killedJustAfter ? repeats.resentAfterDispatcherKill : repeats.unexplained).push(deliveryId);
  }
  return repeats;
}
