import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { create, toJson } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  type CreateJobRequest,
  ErrorCode,
  type Job,
  JobSchema,
  ServiceFailure,
  TaskResultSchema,
  TaskSchema,
  TaskSpecSchema,
  UploadFormSchema,
  credentialKey,
  sealCredentials,
} from '@transmute/contracts';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import { STORAGE, type Storage, type UploadCeiling, storageKey } from '@transmute/storage';
import { CatalogueClient } from '../catalogue/catalogue.client';
import type { OrchestratorConfig } from '../config';
import { type JobChange, JobDriver } from '../dispatch/job-driver';
import { JobEventLog } from '../events/job-event-log';
import { createJob, createTask, moveJob } from '../state/transitions';
import type { LiveJob, LiveTask } from '../store/live-job';
import { JobStore } from '../store/job-store';
import { IMPORT_JOB_TASKS, type JobPlan, type PlannedTask, planJob } from './job-plan';
import { toJobMessage } from './job-view';
import { StoredImports, receiveStoredImports } from './stored-imports';

/** Listing an account's jobs: the default and the most. */
const DEFAULT_LIST_LIMIT = 50;
const MAX_LIST_LIMIT = 200;

const UPLOAD_CONTENT_TYPE = 'application/octet-stream';

@Injectable()
export class JobsService {
  private readonly logger = new Logger(JobsService.name);
  private readonly credentialKey: Buffer;

  constructor(
    private readonly store: JobStore,
    private readonly catalogue: CatalogueClient,
    private readonly driver: JobDriver,
    private readonly events: JobEventLog,
    private readonly storedImports: StoredImports,
    @Inject(STORAGE) private readonly storage: Storage,
    @Inject(SERVICE_CONFIG) private readonly config: OrchestratorConfig,
  ) {
    this.credentialKey = credentialKey(config.credentialsKey);
  }

  async create(request: CreateJobRequest): Promise<Job> {
    const plan = planJob(request, request.convertAllowance);
    const families = await this.routeConversions(plan);
    // Sandbox: checked exactly like a real job, then nothing is stored.
    if (request.validateOnly) return validatedJob(plan);
    const jobId = randomBytes(16).toString('hex');
    const now = Date.now();
    const tasks: Record<string, LiveTask> = {};
    for (const planned of plan.tasks) {
      // A job built around an import reads the import's bytes where the gateway put them.
      const importKey = request.importId && planned.name === IMPORT_JOB_TASKS.import ? request.importKey : '';
      tasks[planned.name] = await this.liveTask(jobId, planned, families.get(planned.name) ?? '', now, importKey, uploadCeilingOf(request));
    }
    const job = createJob(
      {
        id: jobId,
        accountId: request.accountId,
        tag: request.tag,
        webhookUrl: request.webhookUrl,
        taskOrder: plan.tasks.map((task) => task.name),
        tasks,
        // The plan's allowance is also how many of the account's converts run at once (fair scheduling).
        ...(request.convertAllowance > 0 && { convertAllowance: request.convertAllowance }),
      },
      { now },
    );
    await this.store.create(job);
    this.logger.log({ jobId, accountId: request.accountId, tasks: plan.tasks.length }, 'job created');
    // The event log starts with the job's first status, so every stream event has an id to resume from.
    const message = toJobMessage(job);
    await this.events.append(message);
    return message;
  }

  async get(jobId: string, accountId: string): Promise<Job> {
    return toJobMessage(await this.ownedJob(jobId, accountId));
  }

  /** The account's jobs within the retention period, newest first. */
  async list(accountId: string, limit: number): Promise<Job[]> {
    if (!accountId) throw ServiceFailure.validation('listing jobs needs an account');
    const jobs = await this.store.listForAccount(accountId, Math.min(limit || DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT));
    return jobs.map(toJobMessage);
  }

  private async ownedJob(jobId: string, accountId: string): Promise<LiveJob> {
    const job = await this.store.get(jobId);
    // Another account's job is as absent as a job that never was, and so is one past the retention period.
    if (!job || !isOwnedBy(job, accountId)) throw ServiceFailure.notFound(`no job ${jobId}`);
    return job;
  }

  /**
   * Starts the job. Refused with 409, changing nothing, when the job is past
   * waiting_upload or an import/upload task's bytes have not arrived. Imports
   * whose bytes are stored already (uploads, base64 files) finish with the
   * start: only imports that fetch something go to the importer.
   */
  async completeUpload(jobId: string, accountId: string): Promise<Job> {
    const job = await this.startableJob(jobId, accountId);
    const stored = await this.storedImports.describe(job);
    const missing = [...stored].filter(([name, file]) => file === null && job.tasks[name]?.operation === 'import/upload').map(([name]) => name);
    if (missing.length > 0) {
      throw new ServiceFailure(
        ErrorCode.CONFLICT,
        `still waiting for the file of task${missing.length > 1 ? 's' : ''} ${missing.join(', ')}; send each to its upload form URL first`,
      );
    }
    // In the reconciler's set before it starts, so a crash right after the start is still looked after.
    await this.store.markActive(jobId);
    // Imports already in storage finish with the start; a base64 file that is missing is left to the importer, which fails it.
    let startedHere = false;
    const started = await this.startWith(jobId, (current, now) => {
      const running = moveJob(current, 'start', { now });
      // The decision made last is the one the compare-and-set kept.
      startedHere = running !== null;
      return running && receiveStoredImports(running, stored, now);
    });
    if (!started) throw ServiceFailure.notFound(`no job ${jobId}`);
    if (!startedHere) throw alreadyStarted(started);
    return toJobMessage(started);
  }

  /**
   * The job complete-upload starts. A job never returns to waiting_upload,
   * so the entry this replica kept can only be wrong in saying it may still
   * start; the start's compare-and-set finds that out. A refusal is decided
   * on a fresh read.
   */
  private async startableJob(jobId: string, accountId: string): Promise<LiveJob> {
    const kept = this.store.kept(jobId);
    if (kept?.status === 'waiting_upload' && isOwnedBy(kept, accountId)) return kept;
    const job = await this.ownedJob(jobId, accountId);
    if (job.status !== 'waiting_upload') throw alreadyStarted(job);
    return job;
  }

  /**
   * The start is stored before the converts it makes ready are prepared (a
   * charge, maybe a route): once it is, a failure to prepare is left to the
   * reconciler, which prepares stalled converts again, and the client is
   * answered with the started job rather than an error it would retry in vain.
   */
  private async startWith(jobId: string, start: JobChange): Promise<LiveJob | null> {
    try {
      return await this.driver.step(jobId, start);
    } catch (error) {
      const current = await this.store.get(jobId).catch(() => null);
      if (!current || current.status === 'waiting_upload') throw error;
      this.logger.warn({ err: error, jobId }, 'job started, its ready converts not dispatched yet; the reconciler tries again');
      return current;
    }
  }

  private async routeConversions(plan: JobPlan): Promise<Map<string, string>> {
    const routes = await this.catalogue.route(plan.conversions.map(({ inputFormat, outputFormat }) => ({ inputFormat, outputFormat })));
    const families = new Map<string, string>();
    plan.conversions.forEach((conversion, index) => {
      const family = routes[index]?.family;
      if (!family) {
        throw ServiceFailure.validation(`convert task ${conversion.task}: no conversion from ${conversion.inputFormat} to ${conversion.outputFormat} is available`);
      }
      families.set(conversion.task, family);
    });
    return families;
  }

  private async liveTask(jobId: string, planned: PlannedTask, family: string, now: number, importKey: string, ceiling: UploadCeiling | undefined): Promise<LiveTask> {
    let uploadKey = importKey;
    let result: Record<string, unknown> | null = null;
    if (planned.operation === 'import/upload' && !importKey) {
      uploadKey = storageKey('uploads', jobId, planned.name);
      const target = await this.storage.presignUpload(uploadKey, {
        contentType: UPLOAD_CONTENT_TYPE,
        expiresInSeconds: this.config.uploadLinkTtlSeconds,
        ...(ceiling && { ceiling }),
      });
      const form = create(UploadFormSchema, {
        url: target.url,
        method: target.method,
        parameters: target.parameters,
        headers: target.headers,
        expiresAt: timestampFromDate(target.expiresAt),
      });
      result = toJson(TaskResultSchema, create(TaskResultSchema, { form })) as Record<string, unknown>;
    }
    return createTask(
      {
        name: planned.name,
        operation: planned.operation,
        dependsOn: planned.dependsOn,
        spec: sealCredentials(toJson(TaskSpecSchema, planned.spec) as Record<string, unknown>, this.credentialKey),
        inputFormat: planned.inputFormat,
        outputFormat: planned.outputFormat,
        family,
        uploadKey,
        progress: null,
        publishedAt: null,
        deadlineAt: null,
        output: null,
        result,
      },
      { now },
    );
  }
}

/** The ceiling the gateway found for the job's direct uploads (the account's remaining quota); none when it sent none. */
function uploadCeilingOf(request: CreateJobRequest): UploadCeiling | undefined {
  const maxBytes = Number(request.uploadCeilingBytes);
  return maxBytes > 0 ? { accountId: request.accountId, maxBytes } : undefined;
}

/** What a sandbox job would hold: the planned tasks, none of them stored. */
function validatedJob(plan: JobPlan): Job {
  return create(JobSchema, {
    status: 'finished',
    tasks: plan.tasks.map((task) =>
      create(TaskSchema, {
        name: task.name,
        operation: task.operation,
        status: 'finished',
        dependsOn: task.dependsOn,
        // The simulated result names files by the format each task produces.
        result: create(TaskResultSchema, { filename: task.outputFormat }),
      }),
    ),
  });
}

function alreadyStarted(job: LiveJob): ServiceFailure {
  return new ServiceFailure(ErrorCode.CONFLICT, `job ${job.id} has already been started (status ${job.status}); complete-upload is called once`);
}

/** An empty account id is an internal caller (JobRef), to whom every job belongs. */
function isOwnedBy(job: LiveJob, accountId: string): boolean {
  return !accountId || job.accountId === accountId;
}
