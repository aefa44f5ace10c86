import { JOB_FIELDS, JOB_STATUSES, type Job, TASK_FIELDS } from './api-types';

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function dateTime(value: unknown, where: string): string[] {
  return typeof value === 'string' && ISO_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)) ? [] : [`${where} is not an ISO 8601 date-time: ${JSON.stringify(value)}`];
}

function nullableDateTime(value: unknown, where: string): string[] {
  return value === null ? [] : dateTime(value, where);
}

const sameKeys = (actual: object, expected: readonly string[]): boolean => JSON.stringify(Object.keys(actual).sort()) === JSON.stringify([...expected].sort());

/**
 * Everything wrong with a job response against the spec's "Job (response
 * body)" and "Task record" tables; empty when it conforms. Used as
 * `expect(jobShapeProblems(job)).toEqual([])` so a failure lists every problem.
 */
export function jobShapeProblems(value: unknown): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`a job is a JSON object, got ${JSON.stringify(value)}`];
  const job = value as Job;
  const problems: string[] = [];
  if (!sameKeys(job, JOB_FIELDS)) problems.push(`job fields are [${Object.keys(job).sort().join(', ')}], spec: [${[...JOB_FIELDS].sort().join(', ')}]`);
  if (typeof job.id !== 'string' || !/^[0-9a-f]{32}$/.test(job.id)) problems.push(`id is not 32 lowercase hex: ${JSON.stringify(job.id)}`);
  if (typeof job.tag !== 'string') problems.push(`tag is not a string: ${JSON.stringify(job.tag)}`);
  if (!(JOB_STATUSES as readonly string[]).includes(job.status)) problems.push(`status is not a job status: ${JSON.stringify(job.status)}`);
  problems.push(...dateTime(job.createdAt, 'createdAt'), ...dateTime(job.updatedAt, 'updatedAt'));
  problems.push(...nullableDateTime(job.startedAt, 'startedAt'), ...nullableDateTime(job.endedAt, 'endedAt'));
  if (job.result !== null && (typeof job.result !== 'object' || Array.isArray(job.result))) problems.push(`result is neither an object nor null: ${JSON.stringify(job.result)}`);
  if (typeof job.error !== 'string') problems.push(`error is not a string: ${JSON.stringify(job.error)}`);
  if (typeof job.links !== 'object' || job.links === null || !sameKeys(job.links, ['self']) || job.links.self !== `/v1/process/jobs/${job.id}`) {
    problems.push(`links is not { self: '/v1/process/jobs/${job.id}' }: ${JSON.stringify(job.links)}`);
  }
  if (!Array.isArray(job.tasks)) return [...problems, `tasks is not a list: ${JSON.stringify(job.tasks)}`];
  for (const [index, task] of job.tasks.entries()) {
    const where = `tasks[${index}]${typeof task?.name === 'string' ? ` (${task.name})` : ''}`;
    if (typeof task !== 'object' || task === null) {
      problems.push(`${where} is not an object`);
      continue;
    }
    // `result` when the task has one; `progress` while a convert reports it.
    const expected = [...TASK_FIELDS, ...(['result', 'progress'] as const).filter((field) => field in task)];
    if (!sameKeys(task, expected)) problems.push(`${where} fields are [${Object.keys(task).sort().join(', ')}], spec: [${[...expected].sort().join(', ')}]`);
    if (typeof task.name !== 'string' || task.name === '') problems.push(`${where}.name is not a non-empty string`);
    if (task.id !== task.name) problems.push(`${where}.id ${JSON.stringify(task.id)} differs from its name`);
    if (task.job !== job.id) problems.push(`${where}.job ${JSON.stringify(task.job)} is not the job id`);
    if (typeof task.operation !== 'string') problems.push(`${where}.operation is not a string`);
    if (typeof task.status !== 'string' || task.status === '') problems.push(`${where}.status is not a non-empty string`);
    if (!Array.isArray(task.dependsOn) || task.dependsOn.some((name) => typeof name !== 'string')) problems.push(`${where}.dependsOn is not a list of names`);
    problems.push(...dateTime(task.createdAt, `${where}.createdAt`), ...dateTime(task.updatedAt, `${where}.updatedAt`));
    if ('result' in task && (typeof task.result !== 'object' || task.result === null || Array.isArray(task.result))) problems.push(`${where}.result is not an object`);
  }
  return problems;
}
