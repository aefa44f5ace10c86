import { create, type JsonObject } from '@bufbuild/protobuf';
import { JobCreateBody, type Task } from '@transmute/api-schema';
import { type CreateJobRequest, CreateJobRequestSchema, ServiceFailure, type TaskSpec, TaskSpecSchema } from '@transmute/contracts';
import { validationMessage } from '../http/validation-message';

/** Spec field name → TaskSpec property, for every plain string field a task may carry. */
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

/**
 * Reads a job create body into the message the orchestrator validates. The
 * shapes come from `@transmute/api-schema` (the schemas the OpenAPI document
 * is built from); the task graph rules belong to the orchestrator. Unknown
 * fields are dropped.
 */
export function parseCreateJobBody(body: unknown, context: JobRequestContext): ParsedJobBody {
  // A __proto__ key would replace the prototype of the plain object the tasks travel in.
  if (isObject(body) && isObject(body['tasks']) && Object.prototype.hasOwnProperty.call(body['tasks'], '__proto__')) {
    throw ServiceFailure.validation('task name __proto__ is not allowed');
  }
  const parsed = JobCreateBody.safeParse(body);
  if (!parsed.success) throw ServiceFailure.validation(validationMessage(parsed.error));
  const job = parsed.data;
  const importId = job.import_id ?? '';
  if (!job.tasks && !importId) throw ServiceFailure.validation('tasks is required: an object mapping each task name to its task');
  const tasks: Record<string, TaskSpec> = {};
  for (const [name, task] of Object.entries(job.tasks ?? {})) tasks[name] = toTaskSpec(task);
  return {
    sandbox: job.sandbox === true,
    request: create(CreateJobRequestSchema, {
      tasks,
      taskOrder: Object.keys(tasks),
      tag: job.tag ?? '',
      importId,
      outputFormat: job.output_format ?? '',
      inputFormat: job.input_format ?? '',
      webhookUrl: job.webhook_url ?? '',
      accountId: context.accountId,
      convertAllowance: context.convertAllowance,
    }),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function toTaskSpec(task: Task): TaskSpec {
  const fields = task as Record<string, unknown>;
  const input = fields['input'];
  const spec = create(TaskSpecSchema, {
    operation: task.operation,
    input: input === undefined || input === null ? [] : Array.isArray(input) ? (input as string[]) : [input as string],
    inputIsList: Array.isArray(input),
  });
  for (const [jsonName, property] of Object.entries(TASK_STRING_FIELDS)) {
    const value = fields[jsonName];
    if (typeof value === 'string') spec[property] = value;
  }
  if (typeof fields['port'] === 'number') spec.port = fields['port'];
  // google.protobuf.Struct is a JSON object in protobuf-es, and a parsed body is JSON already.
  if (isObject(fields['options'])) spec.options = fields['options'] as JsonObject;
  return spec;
}
