import { z } from 'zod';
import { FormatName } from './common';

export const FormatsQuery = z.object({
  input_format: FormatName.optional().meta({ description: 'Omitted: every readable format. Given: every format it converts to.' }),
});
export const OptionsQuery = z.object({ input_format: FormatName, output_format: FormatName });

export const FormatList = z
  .object({
    status: z.literal('success'),
    count: z.number().int().min(0),
    input_format: z.string().optional().meta({ description: 'Echoed, lowercase, when the request named one.' }),
    formats: z.array(z.string()).meta({ description: 'Lowercase extensions, sorted.' }),
  })
  .meta({ id: 'FormatList' });

const OptionValue = z.union([z.string(), z.object({ value: z.string(), label: z.string() })]);

export const ConversionOption = z
  .object({
    name: z.string(),
    type: z.string().meta({ description: 'checkbox, number, select, radio or range.' }),
    label: z.string().optional(),
    description: z.string().optional(),
    group: z.string().optional(),
    min: z.number().int().optional(),
    max: z.number().int().optional(),
    step: z.number().int().optional(),
    default: z.union([z.string(), z.number(), z.boolean()]).optional(),
    values: z.array(OptionValue).optional(),
    applies_when: z.record(z.string(), z.string()).optional(),
  })
  .meta({ id: 'ConversionOption' });
export type ConversionOption = z.infer<typeof ConversionOption>;

export const OptionList = z
  .object({
    status: z.literal('success'),
    input_format: z.string(),
    output_format: z.string(),
    count: z.number().int().min(0),
    options: z.array(ConversionOption),
  })
  .meta({ id: 'OptionList' });
