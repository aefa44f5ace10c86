import { create } from '@bufbuild/protobuf';
import {
  type CreateJobRequest,
  CreateJobRequestSchema,
  ServiceFailure,
  TaskSpecSchema,
  type TaskSpec,
  isExportOperation,
  isImportOperation,
  isFormatName,
  isOperation,
  normaliseFormatName,
} from '@transmute/contracts';
import { formatFromName } from './formats';

export interface PlannedTask {
  name: string;
  operation: string;
  dependsOn: string[];
  spec: TaskSpec;
  /** Imports: the format of the source. Converts: the resolved input format. */
  inputFormat: string;
  outputFormat: string;
}

export interface JobPlan {
  tasks: PlannedTask[];
  /** Every (input, output) pair the catalogue must know. */
  conversions: { task: string; inputFormat: string; outputFormat: string }[];
}

const TASK_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const MAX_TAG_LENGTH = 255;
export const MAX_TASKS = 500;

const invalid = (message: string) => ServiceFailure.validation(message);

/** The spec's job validation rules, named in every 422 that breaks one. */
export const RULES = {
  1: 'rule 1 (operation must be one of the twelve)',
  2: 'rule 2 (every import must be the input of a convert)',
  3: 'rule 3 (an export may not be wired to an import)',
  4: 'rule 4 (the graph must be acyclic and trace back to an import)',
  5: 'rule 5 (a convert takes one import or convert; an export takes convert tasks)',
  6: 'rule 6 (convert tasks per job within the plan allowance)',
} as const;
const broken = (rule: keyof typeof RULES, message: string) => invalid(`${RULES[rule]}: ${message}`);

/** Names of the tasks a job built around `import_id` gets. */
export const IMPORT_JOB_TASKS = { import: 'import', convert: 'convert', export: 'export' } as const;

/**
 * A job built around an import (import_id + output_format): the import's
 * bytes, one convert, one export/url, named as IMPORT_JOB_TASKS.
 */
export function withImportTasks(request: CreateJobRequest): CreateJobRequest {
  if (!request.importId) return request;
  if (request.taskOrder.length > 0 || Object.keys(request.tasks).length > 0) {
    throw invalid('import_id builds the whole job (import, convert, export); leave tasks out');
  }
  if (!request.outputFormat) throw invalid('import_id needs a top-level output_format');
  const { import: importName, convert, export: exportName } = IMPORT_JOB_TASKS;
  return create(CreateJobRequestSchema, {
    ...request,
    tasks: {
      [importName]: create(TaskSpecSchema, { operation: 'import/upload', filename: request.importFilename, inputFormat: request.inputFormat }),
      [convert]: create(TaskSpecSchema, { operation: 'convert', input: [importName], outputFormat: request.outputFormat }),
      [exportName]: create(TaskSpecSchema, { operation: 'export/url', input: [convert], inputIsList: true }),
    },
    taskOrder: [importName, convert, exportName],
  });
}

/**
 * Checks a job create request against the spec's rules 1 to 6 and resolves
 * every convert task's formats. Pure: the catalogue check comes after.
 */
export function planJob(original: CreateJobRequest, convertAllowance: number): JobPlan {
  const request = withImportTasks(original);
  const names = request.taskOrder.length > 0 ? request.taskOrder : Object.keys(request.tasks);
  if (names.length === 0) throw invalid('the job has no tasks');
  if (names.length > MAX_TASKS) throw invalid(`a job holds at most ${MAX_TASKS} tasks; this one has ${names.length}`);
  if ([...request.tag].length > MAX_TAG_LENGTH) throw invalid(`tag is longer than ${MAX_TAG_LENGTH} characters`);

  const specs = new Map<string, TaskSpec>();
  for (const name of names) {
    const spec = request.tasks[name];
    if (!spec) throw invalid(`task ${name} is missing`);
    if (!TASK_NAME.test(name)) {
      throw invalid(`task name ${JSON.stringify(name)} must be 1 to 64 letters, digits, dots, dashes or underscores`);
    }
    // Rule 1.
    if (!isOperation(spec.operation)) {
      throw broken(1, `task ${name}: unknown operation ${JSON.stringify(spec.operation)}`);
    }
    specs.set(name, spec);
  }

  const dependsOn = new Map<string, string[]>();
  for (const [name, spec] of specs) dependsOn.set(name, checkInputs(name, spec, specs));

  // Rule 2: every import feeds a convert.
  for (const [name, spec] of specs) {
    if (!isImportOperation(spec.operation)) continue;
    const consumed = [...specs].some(([other, otherSpec]) => otherSpec.operation === 'convert' && dependsOn.get(other)?.includes(name));
    if (!consumed) throw broken(2, `import task ${name} is not the input of any convert task`);
  }

  // Rule 4: acyclic, and every convert chain starts at an import.
  for (const name of specs.keys()) traceToImport(name, specs, dependsOn);

  // Rule 6.
  const converts = [...specs.values()].filter((spec) => spec.operation === 'convert').length;
  if (converts === 0) throw invalid('the job has no convert task');
  if (converts > convertAllowance) {
    throw broken(6, `the job has ${converts} convert tasks; the plan allows ${convertAllowance} per job`);
  }

  return resolveFormats(names, specs, dependsOn);
}

/** Rules 3 and 5: what each operation may take as input. */
function checkInputs(name: string, spec: TaskSpec, specs: Map<string, TaskSpec>): string[] {
  const inputs = spec.input;
  if (isImportOperation(spec.operation)) {
    if (inputs.length > 0) throw broken(5, `import task ${name} takes no input`);
    requireFields(name, spec);
    return [];
  }
  for (const input of inputs) {
    if (input === name) throw broken(4, `task ${name} takes itself as input`);
    if (!specs.has(input)) throw broken(5, `task ${name}: input ${JSON.stringify(input)} is not a task of this job`);
  }
  if (spec.operation === 'convert') {
    // The spec types input as "string or array of strings": ["a"] names one task as surely as "a" does.
    if (inputs.length !== 1) throw broken(5, `convert task ${name} must name exactly one input task`);
    const source = specs.get(inputs[0] as string) as TaskSpec;
    if (!isImportOperation(source.operation) && source.operation !== 'convert') {
      throw broken(5, `convert task ${name}: input ${inputs[0]} is a ${source.operation} task, not an import or a convert`);
    }
    if (!spec.outputFormat) throw invalid(`convert task ${name}: output_format is required`);
    return [...inputs];
  }
  if (isExportOperation(spec.operation)) {
    if (spec.operation === 'export/webhook' && !spec.url) throw invalid(`export/webhook task ${name}: url is required`);
    if (spec.operation !== 'export/webhook' && inputs.length === 0) throw broken(5, `export task ${name} must name its convert tasks in input`);
    for (const input of inputs) {
      const source = specs.get(input) as TaskSpec;
      if (isImportOperation(source.operation)) {
        throw broken(3, `export task ${name} is wired directly to import task ${input}; exports take convert tasks`);
      }
      if (source.operation !== 'convert') throw broken(5, `export task ${name}: input ${input} is not a convert task`);
    }
    return [...new Set(inputs)];
  }
  return [];
}

function requireFields(name: string, spec: TaskSpec): void {
  if (spec.operation === 'import/url' && !spec.url) throw invalid(`import/url task ${name}: url is required`);
  // The gateway decodes and stores the file at creation and leaves only stored_key (docs/decisions.md).
  if (spec.operation === 'import/base64' && !spec.file && !spec.storedKey) throw invalid(`import/base64 task ${name}: file is required`);
}

function traceToImport(start: string, specs: Map<string, TaskSpec>, dependsOn: Map<string, string[]>): void {
  const seen = new Set<string>();
  let current = start;
  while (specs.get(current)?.operation === 'convert') {
    if (seen.has(current)) throw broken(4, `tasks ${[...seen].join(', ')} form a cycle`);
    seen.add(current);
    current = dependsOn.get(current)?.[0] as string;
  }
}

function resolveFormats(names: string[], specs: Map<string, TaskSpec>, dependsOn: Map<string, string[]>): JobPlan {
  const formatOf = new Map<string, string>();
  const planned = new Map<string, PlannedTask>();
  const conversions: JobPlan['conversions'] = [];

  const resolve = (name: string): string => {
    const known = formatOf.get(name);
    if (known !== undefined) return known;
    const spec = specs.get(name) as TaskSpec;
    let inputFormat = '';
    let outputFormat = '';
    if (isImportOperation(spec.operation)) {
      inputFormat = normaliseFormatName(spec.inputFormat) || formatFromName(spec.filename || spec.url || spec.key || spec.path);
      outputFormat = inputFormat;
    } else if (spec.operation === 'convert') {
      const upstream = dependsOn.get(name)?.[0] as string;
      const upstreamFormat = resolve(upstream);
      // A chained convert always reads what its upstream convert wrote.
      inputFormat = specs.get(upstream)?.operation === 'convert' ? upstreamFormat : normaliseFormatName(spec.inputFormat) || upstreamFormat;
      outputFormat = normaliseFormatName(spec.outputFormat);
      if (!isFormatName(outputFormat)) throw invalid(`convert task ${name}: output_format ${JSON.stringify(outputFormat)} is not a format name (1 to 16 letters or digits)`);
      // Neither a name nor input_format tells: the importer recognises the bytes, and the convert is routed when they arrive.
      if (inputFormat) {
        if (!isFormatName(inputFormat)) throw invalid(`convert task ${name}: input_format ${JSON.stringify(inputFormat)} is not a format name (1 to 16 letters or digits)`);
        conversions.push({ task: name, inputFormat, outputFormat });
      }
    }
    formatOf.set(name, outputFormat);
    planned.set(name, { name, operation: spec.operation, dependsOn: dependsOn.get(name) ?? [], spec, inputFormat, outputFormat });
    return outputFormat;
  };

  for (const name of names) resolve(name);
  return { tasks: names.map((name) => planned.get(name) as PlannedTask), conversions };
}
