import { z } from 'zod';
import { HttpUrl, optional } from '../common';
import { TaskInput } from './shared';

/** `export/webhook`: the target is notified when the job ends. */
export const ExportWebhookTask = z
  .object({
    operation: z.literal('export/webhook'),
    input: optional(TaskInput),
    url: HttpUrl.meta({ description: 'The target of the notification: a public http or https URL.' }),
  })
  .meta({ id: 'ExportWebhookTask' });
