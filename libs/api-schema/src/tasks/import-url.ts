import { z } from 'zod';
import { HttpUrl } from '../common';
import { importFormatFields } from './shared';

/** `import/url`: fetched when the job runs; the public-address rule is applied at fetch time. */
export const ImportUrlTask = z
  .object({
    operation: z.literal('import/url'),
    url: HttpUrl.meta({ description: 'Where to fetch the source: a public http or https URL.' }),
    ...importFormatFields,
  })
  .meta({ id: 'ImportUrlTask' });
