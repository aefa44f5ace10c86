import { z } from 'zod';
import { TaskInput } from './shared';

/** `export/url`: a download link per converted file. */
export const ExportUrlTask = z
  .object({
    operation: z.literal('export/url'),
    input: TaskInput.meta({ description: 'The convert task(s) whose results to deliver.' }),
  })
  .meta({ id: 'ExportUrlTask' });
