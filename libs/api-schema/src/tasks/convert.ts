import { z } from 'zod';
import { FormatName, optional } from '../common';
import { TaskInput } from './shared';

export const ConvertTask = z
  .object({
    operation: z.literal('convert'),
    input: TaskInput.meta({ description: 'Exactly one task, as a name or an array of one name: an import, or another convert (a chain).' }),
    input_format: optional(FormatName).meta({ description: 'Source format; inferred from the input task when absent. A chained convert reads its upstream output_format.' }),
    output_format: FormatName.meta({ description: 'Target format, lowercase extension.' }),
    options: optional(z.record(z.string(), z.unknown())).meta({ description: 'Conversion settings keyed by option name (GET /v1/options); unknown ones are ignored.' }),
  })
  .meta({ id: 'ConvertTask' });
