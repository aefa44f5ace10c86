import { z } from 'zod';
import { importFormatFields } from './shared';

/** `import/base64`: the bytes inline. Decoding and its size ceiling are checked by the importer. */
export const ImportBase64Task = z
  .object({
    operation: z.literal('import/base64'),
    file: z.string().min(1).meta({ description: 'Base64 content; a data: URI prefix is accepted and stripped.' }),
    ...importFormatFields,
  })
  .meta({ id: 'ImportBase64Task' });
