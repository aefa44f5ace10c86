import { z } from 'zod';
import 'zod-openapi';
import { FORMAT_NAME_PATTERN, JOB_STATUSES, OPERATIONS, TASK_STATUSES } from '@transmute/contracts';

/** Spec "Limits": job and import ids are 32 lowercase hex characters. */
export const ID_PATTERN = /^[0-9a-f]{32}$/;
/** Task names appear in storage keys and logs (docs/decisions.md). */
export const TASK_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const MAX_TAG_LENGTH = 255;

export const Id = z.string().regex(ID_PATTERN).meta({ description: '32 lowercase hexadecimal characters.', example: '5f0c8a4e2b7d41a39c6e0f1d2a3b4c5d' });
export const FormatName = z.string().regex(FORMAT_NAME_PATTERN).meta({ description: 'A format name: its lowercase file extension, 1 to 16 letters or digits.', example: 'png' });
export const TaskName = z.string().regex(TASK_NAME_PATTERN).meta({ description: 'A task name: 1 to 64 letters, digits, dots, dashes or underscores.' });
export const DateTime = z.iso.datetime();
/** A URL the client gave (http or https only). */
export const HttpUrl = z.url({ protocol: /^https?$/ });

export const ErrorBody = z
  .object({
    status: z.literal('error'),
    message: z.string().meta({ description: 'Why the request failed, for a human.' }),
    retry_after: z.number().int().min(0).optional().meta({ description: '429 only: seconds to wait before the next request.' }),
  })
  .meta({ id: 'Error', description: 'Every error response of the API.' });

export const JobStatus = z.enum(JOB_STATUSES).meta({
  id: 'JobStatus',
  description:
    'waiting_upload: created, waiting for complete-upload. queued: started, its next tasks wait for a worker. processing: an import or export runs, or between steps. converting: a convert runs. finished and failed are terminal. waiting is never set on a job; it is listed because the spec lists it.',
});
export const TaskStatus = z.enum(TASK_STATUSES).meta({
  id: 'TaskStatus',
  description:
    'waiting_upload: import/upload before complete-upload. waiting: other imports before complete-upload. waiting_input: converts and exports until their inputs finish. queued, processing, then finished, failed or cancelled (never started because the job failed).',
});
export const Operation = z.enum(OPERATIONS).meta({ id: 'Operation' });

/** Optional request fields: JSON null counts as absent (docs/decisions.md). */
export const optional = <T extends z.ZodType>(schema: T) => schema.nullish();
