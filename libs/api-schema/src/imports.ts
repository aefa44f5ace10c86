import { z } from 'zod';
import { DateTime, Id } from './common';

export const ImportUpload = z
  .object({
    url: z.string().meta({ description: 'Direct route: signed storage URL; send the bytes with method and exactly headers.' }),
    method: z.enum(['PUT', 'POST']).meta({ description: 'PUT: the raw bytes as the body. POST (S3 storage): a multipart form of parameters, then the file.' }),
    headers: z.record(z.string(), z.string()),
    parameters: z.record(z.string(), z.string()).meta({ description: 'POST: the form fields to send before the file, in this order; empty for PUT.' }),
    expiresAt: DateTime,
    proxy_url: z.string().meta({ description: 'Proxy route through this API: PUT or POST the raw bytes here (append ?token=<token> or send the API key).' }),
    token: z.string().meta({ description: 'One-use upload token for proxy_url; stands in for the API key.' }),
  })
  .meta({ id: 'ImportUpload' });

export const Import = z.object({ id: Id, upload: ImportUpload }).meta({ id: 'Import' });
export type Import = z.infer<typeof Import>;

export const ImportContentQuery = z.object({
  token: z.string().optional().meta({ description: 'The one-use upload token returned with the import.' }),
  filename: z.string().min(1).max(255).optional().meta({ description: 'Name of the file; its extension becomes the input format of a job built on this import.' }),
});

export const ImportReceived = z
  .object({ status: z.literal('success'), message: z.string() })
  .meta({ id: 'ImportReceived', description: 'The file arrived (the Error body shape, with status success).' });
