import { create, type JsonObject } from '@bufbuild/protobuf';
import { type CreateJobRequest, CreateJobRequestSchema, ServiceFailure, type TaskSpec, TaskSpecSchema } from '@transmute/contracts';

export const MAX_TAG_LENGTH = 255;
const IMPORT_ID = /^[0-9a-f]{32}$/;

/** Spec field name → TaskSpec property, for every plain string field of a task. */
const TASK_STRING_FIELDS = {
  url: 'url',
  input_format: 'inputFormat',
  output_format: 'outputFormat',
  file: 'file',
  filename: 'filename',
  bucket: 'bucket',
  region: 'region',
  key: 'key',
  access_key_id: 'accessKeyId',
  secret_access_key: 'secretAccessKey',
  session_token: 'sessionToken',
  endpoint: 'endpoint',
  host: 'host',
  username: 'username',
  password: 'password',
  private_key: 'privateKey',
  path: 'path',
  client_email: 'clientEmail',
  project_id: 'projectId',
} as const satisfies Record<string, keyof TaskSpec>;

export interface ParsedJobBody {
  sandbox: boolean;
  request: CreateJobRequest;
}

/** Who asks and what their plan allows; not part of the body. */
export interface JobRequestContext {
  accountId: string;
  convertAllowance: number;
}

type Body = Record<string, unknown>;

const invalid = (message: string) => ServiceFailure.validation(message);
const isObject = (value: unknown): value is Body => typeof value === 'object' && value !== null && !Array.isArray(value);
/** JSON null counts as "not given", as most client libraries send it for unset optional fields. */
const given = (value: unknown): boolean => value !== undefined && value !== null;

function optionalString(value: unknown, field: string): string {
  if (!given(value)) return '';
  if (typeof value !== 'string') throw invalid(`${field} must be a string`);
  return value;
}

/**
 * Reads a job create body (spec: "Job create request") into the message the
 * orchestrator validates. Checks shapes and types only; the task graph rules
 * belong to the orchestrator. Unknown fields are ignored.
 */
export function parseCreateJobBody(body: unknown, context: JobRequestContext): ParsedJobBody {
  if (!isObject(body)) throw invalid('the request body must be a JSON object with a tasks field');

  const sandbox = body['sandbox'];
  if (given(sandbox) && typeof sandbox !== 'boolean') throw invalid('sandbox must be true or false');

  const tag = optionalString(body['tag'], 'tag');
  if ([...tag].length > MAX_TAG_LENGTH) throw invalid(`tag is longer than ${MAX_TAG_LENGTH} characters`);

  const importId = optionalString(body['import_id'], 'import_id');
  if (importId && !IMPORT_ID.test(importId)) throw invalid('import_id must be 32 lowercase hexadecimal characters');

  const tasks = parseTasks(body['tasks'], importId !== '');
  return {
    sandbox: sandbox === true,
    request: create(CreateJobRequestSchema, {
      tasks,
      taskOrder: Object.keys(tasks),
      tag,
      importId,
      outputFormat: optionalString(body['output_format'], 'output_format'),
      webhookUrl: optionalString(body['webhook_url'], 'webhook_url'),
      accountId: context.accountId,
      convertAllowance: context.convertAllowance,
    }),
  };
}

function parseTasks(value: unknown, hasImportId: boolean): Record<string, TaskSpec> {
  // A job built around an import (import_id + output_format) needs no task of its own.
  if (!given(value) && hasImportId) return {};
  if (!given(value)) throw invalid('tasks is required: an object mapping each task name to its task');
  if (!isObject(value)) throw invalid('tasks must be an object mapping each task name to its task');
  const tasks: Record<string, TaskSpec> = {};
  for (const [name, task] of Object.entries(value)) {
    // The map is a plain object on both ends; this name would replace its prototype.
    if (name === '__proto__') throw invalid('task name __proto__ is not allowed');
    tasks[name] = parseTask(name, task);
  }
  return tasks;
}

function parseTask(name: string, task: unknown): TaskSpec {
  if (!isObject(task)) throw invalid(`task ${name} must be an object with an operation`);
  const field = (spec: string) => `task ${name}: ${spec}`;

  const operation = task['operation'];
  if (!given(operation)) throw invalid(field('operation is required'));
  if (typeof operation !== 'string') throw invalid(field('operation must be a string'));

  const spec = create(TaskSpecSchema, { operation, ...parseInput(task['input'], field) });
  for (const [jsonName, property] of Object.entries(TASK_STRING_FIELDS)) {
    spec[property] = optionalString(task[jsonName], field(jsonName));
  }

  const port = task['port'];
  if (given(port)) {
    if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65_535) {
      throw invalid(field('port must be a whole number from 1 to 65535'));
    }
    spec.port = port;
  }

  const options = task['options'];
  if (given(options)) {
    if (!isObject(options)) throw invalid(field('options must be an object of option name to value'));
    // google.protobuf.Struct is a JSON object in protobuf-es, and a parsed body is JSON already.
    spec.options = options as JsonObject;
  }
  return spec;
}

function parseInput(value: unknown, field: (spec: string) => string): Pick<TaskSpec, 'input' | 'inputIsList'> {
  if (!given(value)) return { input: [], inputIsList: false };
  if (typeof value === 'string') return { input: [value], inputIsList: false };
  if (Array.isArray(value) && value.every((entry) => typeof entry === 'string')) {
    return { input: value as string[], inputIsList: true };
  }
  throw invalid(field('input must be a task name or an array of task names'));
}
