import { z } from 'zod';
import { importFormatFields } from './shared';

/** `import/upload`: the job answers with a signed form to send the bytes to. */
export const ImportUploadTask = z
  .object({ operation: z.literal('import/upload'), ...importFormatFields })
  .meta({ id: 'ImportUploadTask', description: 'Receives the bytes the client sends to the upload form of the task result.' });
