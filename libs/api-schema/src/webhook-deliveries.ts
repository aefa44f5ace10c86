import { z } from 'zod';
import { DateTime, HttpUrl } from './common';

/** `pending`: attempts left; `delivered`: a 2xx; `gone`: the receiver answered 410; `failed`: attempts spent, or a refused target. */
export const WEBHOOK_DELIVERY_STATES = ['pending', 'delivered', 'gone', 'failed'] as const;
export const WEBHOOK_EVENTS = ['job.finished', 'job.failed'] as const;

export const WebhookAttempt = z
  .object({
    attempt: z.number().int().min(1).meta({ description: 'Attempt number, 1 to 5 (X-Service-Attempt).' }),
    startedAt: DateTime.nullable(),
    statusCode: z.number().int().nullable().meta({ description: "The receiver's HTTP status; null when no response arrived." }),
    durationMs: z.number().int().min(0),
    error: z.string().nullable().meta({ description: 'Why the attempt failed; null when it succeeded.' }),
  })
  .meta({ id: 'WebhookAttempt' });

export const WebhookDelivery = z
  .object({
    id: z.string().meta({ description: 'The delivery id (X-Service-Delivery): the same on every attempt.' }),
    event: z.enum(WEBHOOK_EVENTS),
    url: HttpUrl.meta({ description: 'The target.' }),
    state: z.enum(WEBHOOK_DELIVERY_STATES).meta({ description: WEBHOOK_DELIVERY_STATES.join(', ') }),
    createdAt: DateTime.nullable(),
    nextAttemptAt: DateTime.nullable().meta({ description: 'When the next attempt is due; null once the delivery is settled.' }),
    attempts: z.array(WebhookAttempt),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryList = z
  .object({ deliveries: z.array(WebhookDelivery) })
  .meta({ id: 'WebhookDeliveryList', description: 'A job\'s webhook deliveries with their attempts (docs/webhooks.md, "Delivery log").' });
