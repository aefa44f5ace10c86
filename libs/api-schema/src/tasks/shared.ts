import { z } from 'zod';
import { FormatName, TaskName, optional } from '../common';

/** `input`: one task name, or a list of them. */
export const TaskInput = z.union([TaskName, z.array(TaskName).min(1)], { error: 'must be a task name or an array of task names' }).meta({
  id: 'TaskInput',
  description: 'The name of the task this one takes its source from, or a list of names (exports).',
});

/** Fields every import accepts so the source's format can be known before it arrives. */
export const importFormatFields = {
  input_format: optional(FormatName).meta({ description: 'Source format; inferred from filename or URL when absent.' }),
  filename: optional(z.string().min(1).max(255)).meta({ description: 'Name of the source file; its extension gives the input format.' }),
};
