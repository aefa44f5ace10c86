import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import type { WebhookDelivery } from '@transmute/api-schema';
import type { WebhookDeliveryRecord } from '@transmute/contracts';

const iso = (stamp: Timestamp | undefined) => (stamp ? timestampDate(stamp).toISOString() : null);

/** One delivery as the account holder sees it (docs/webhooks.md, "Delivery log"). */
export function renderDelivery(record: WebhookDeliveryRecord): WebhookDelivery {
  return {
    id: record.deliveryId,
    // The dispatcher writes only these values; the e2e suite checks every reply against /openapi.json.
    event: record.event as WebhookDelivery['event'],
    url: record.url,
    state: record.state as WebhookDelivery['state'],
    createdAt: iso(record.createdAt),
    nextAttemptAt: iso(record.nextAttemptAt),
    attempts: record.attempts.map((attempt) => ({
      attempt: attempt.attempt,
      startedAt: iso(attempt.startedAt),
      statusCode: attempt.statusCode === 0 ? null : attempt.statusCode,
      durationMs: attempt.durationMs,
      error: attempt.error || null,
    })),
  };
}
