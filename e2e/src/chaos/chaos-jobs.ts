import type { CreateJobRequest, Job, TaskRequest } from '../support/api-types';
import { type ChaosClient, isJob } from './chaos-client';
import { CHAOS_KINDS, type ChaosKind, type ChaosSample } from './chaos-samples';
import type { SourceServer, WebhookReceiver } from './loopback-servers';

export const IMPORT_MODES = ['upload', 'base64', 'url'] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];
/** Every job exports by url; every other one is also announced by webhook, job-level or as an export/webhook task. */
export type WebhookMode = 'none' | 'job' | 'task';

export interface JobPlan {
  index: number;
  kind: ChaosKind;
  importMode: ImportMode;
  webhook: WebhookMode;
}

/** The i-th job of a run: kinds, import modes and webhook modes in turn, so any prefix of the run mixes them all. */
export function planJob(index: number): JobPlan {
  const kind = CHAOS_KINDS[index % CHAOS_KINDS.length]!;
  const importMode = IMPORT_MODES[Math.floor(index / CHAOS_KINDS.length) % IMPORT_MODES.length]!;
  const webhook: WebhookMode = index % 2 === 0 ? 'none' : index % 4 === 1 ? 'job' : 'task';
  return { index, kind, importMode, webhook };
}

export interface JobOutcome {
  plan: JobPlan;
  /** Set once the API answered 201 with the job: from then on it must end. */
  jobId?: string;
  acceptedAt?: number;
  /** Client time at which a poll first saw it finished or failed. */
  endedAt?: number;
  status?: 'finished' | 'failed';
  error?: string;
  /** Why the job was never accepted (creation refused or the gateway away past the deadline). */
  notAccepted?: string;
}

export interface JobContext {
  client: ChaosClient;
  samples: Record<ChaosKind, ChaosSample>;
  sources: SourceServer;
  receiver: WebhookReceiver;
  /** How long one job may take from its creation to its end before the run stops waiting for it here. */
  jobTimeoutMs: number;
  pollIntervalMs: number;
  /** Called whenever a job is accepted or ends (fault timing, stall measurement). */
  onProgress(event: 'accepted' | 'ended', outcome: JobOutcome): void;
}

function importTask(plan: JobPlan, sample: ChaosSample, sources: SourceServer): TaskRequest {
  switch (plan.importMode) {
    case 'upload':
      return { operation: 'import/upload', filename: sample.filename };
    case 'base64':
      return { operation: 'import/base64', file: sample.bytes.toString('base64'), filename: sample.filename };
    case 'url':
      return { operation: 'import/url', url: sources.url(sample.filename), filename: sample.filename };
  }
}

export function jobRequest(plan: JobPlan, context: Pick<JobContext, 'samples' | 'sources' | 'receiver'>): CreateJobRequest {
  const sample = context.samples[plan.kind];
  const tasks: Record<string, TaskRequest> = {
    source: importTask(plan, sample, context.sources),
    convert: { operation: 'convert', input: 'source', input_format: sample.inputFormat, output_format: sample.outputFormat },
    out: { operation: 'export/url', input: ['convert'] },
  };
  if (plan.webhook === 'task') tasks['notify'] = { operation: 'export/webhook', input: ['convert'], url: context.receiver.url(`/hooks/task/${plan.index}`) };
  return {
    tag: `chaos-${plan.index}-${plan.kind}-${plan.importMode}`,
    tasks,
    ...(plan.webhook === 'job' && { webhook_url: context.receiver.url(`/hooks/job/${plan.index}`) }),
  };
}

/** Creates the job, sends its bytes, starts it and polls it until it ends or its time is up. */
export async function runJob(plan: JobPlan, context: JobContext): Promise<JobOutcome> {
  const outcome: JobOutcome = { plan };
  const deadline = Date.now() + context.jobTimeoutMs;
  const created = await context.client.createJob(jobRequest(plan, context), deadline).catch((error: unknown) => ({ status: 0, body: String(error) }));
  if (created.status !== 201 || !isJob(created.body)) {
    outcome.notAccepted = `create answered ${created.status}: ${JSON.stringify(created.body).slice(0, 200)}`;
    return outcome;
  }
  let job: Job = created.body;
  outcome.jobId = job.id;
  outcome.acceptedAt = Date.now();
  context.onProgress('accepted', outcome);
  try {
    await sendAndStart(job, plan, context, deadline);
  } catch (error) {
    // Accepted but not started by us: it stays in the run and is polled like the others (it may end as failed, or never).
    outcome.error = `client: ${(error as Error).message}`;
  }
  await pollUntilEnded(outcome, context, deadline, (current) => (job = current));
  return outcome;
}

/** A 409 with the job still waiting for its bytes means they never counted: send them again (as the message says), at most this often. */
const START_ATTEMPTS = 3;

/** Sends the bytes (upload jobs) and starts the job, the way a careful client follows the API's answers. */
async function sendAndStart(job: Job, plan: JobPlan, context: JobContext, deadline: number): Promise<void> {
  if (plan.importMode !== 'upload' && job.status !== 'waiting_upload') return;
  for (let attempt = 1; ; attempt++) {
    if (plan.importMode === 'upload') {
      const form = job.tasks.find((task) => task.name === 'source')?.result?.form;
      if (!form) throw new Error('no upload form on the import task');
      const sent = await context.client.upload(form, context.samples[plan.kind].bytes, deadline);
      if (sent.status !== 200 && sent.status !== 204) throw new Error(`upload answered ${sent.status}`);
    }
    const started = await context.client.completeUpload(job.id, deadline);
    if (started.status === 200) return;
    if (started.status !== 409) throw new Error(`complete-upload answered ${started.status}: ${JSON.stringify(started.body).slice(0, 200)}`);
    // 409: already started (a retried call whose first answer was lost), or the bytes did not count.
    const current = await context.client.getJob(job.id, deadline);
    if (!isJob(current.body) || current.body.status !== 'waiting_upload') return;
    if (attempt >= START_ATTEMPTS) throw new Error(`still waiting for its bytes after ${attempt} uploads: ${JSON.stringify(started.body).slice(0, 200)}`);
    context.client.resends += 1;
  }
}

/** Polls an accepted job until it is finished or failed, or the deadline passes. */
export async function pollUntilEnded(outcome: JobOutcome, context: JobContext, deadline: number, seen: (job: Job) => void = () => undefined): Promise<void> {
  while (Date.now() < deadline && !outcome.status) {
    const reply = await context.client.getJob(outcome.jobId!, deadline).catch(() => undefined);
    if (reply && isJob(reply.body)) {
      seen(reply.body);
      if (reply.body.status === 'finished' || reply.body.status === 'failed') {
        outcome.status = reply.body.status;
        outcome.endedAt = Date.now();
        if (reply.body.status === 'failed') outcome.error = reply.body.error || 'failed without an error message';
        context.onProgress('ended', outcome);
        return;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, context.pollIntervalMs));
  }
}
