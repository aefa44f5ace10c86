import type { TaskStatus } from '@transmute/contracts';
import type { LiveJob, LiveTask } from '../src/store/live-job';

/** Live jobs and tasks for unit specs: a task finished with an output, a job started unless it waits for its upload. */
export function task(name: string, operation: string, status: TaskStatus, dependsOn: string[] = [], family = 'image'): LiveTask {
  return {
    name,
    operation,
    status,
    dependsOn,
    spec: null,
    inputFormat: 'png',
    outputFormat: 'jpg',
    family,
    uploadKey: '',
    attempt: 0,
    progress: null,
    publishedAt: null,
    deadlineAt: null,
    output: status === 'finished' ? { key: `k/${name}`, filename: `${name}.png`, size: 10, format: 'png' } : null,
    result: null,
    createdAt: 0,
    updatedAt: 0,
  };
}

export function job(status: LiveJob['status'], tasks: LiveTask[]): LiveJob {
  return {
    id: 'a'.repeat(32),
    accountId: 'acc',
    tag: '',
    status,
    webhookUrl: '',
    error: '',
    taskOrder: tasks.map((t) => t.name),
    tasks: Object.fromEntries(tasks.map((t) => [t.name, t])),
    createdAt: 0,
    updatedAt: 0,
    startedAt: status === 'waiting_upload' ? null : 1,
    endedAt: null,
  };
}
