import { Subjects } from './subjects.js';

/**
 * JetStream streams for work that must not be lost. Each is a work queue:
 * a message leaves the stream once a consumer acknowledges it.
 */
export interface WorkStreamDefinition {
  name: string;
  subjects: string[];
  /** Window in which a repeated `Nats-Msg-Id` is dropped as a duplicate. */
  duplicateWindowMs: number;
}

export const Streams = {
  tasks: {
    name: 'TASKS',
    subjects: [Subjects.tasksImport, Subjects.tasksConvert('*'), Subjects.tasksExport],
    duplicateWindowMs: 120_000,
  },
  outcomes: {
    name: 'TASK_OUTCOMES',
    subjects: [Subjects.tasksOutcomes],
    duplicateWindowMs: 120_000,
  },
  webhooks: {
    name: 'WEBHOOKS',
    subjects: [Subjects.webhooksDeliver],
    duplicateWindowMs: 120_000,
  },
} as const satisfies Record<string, WorkStreamDefinition>;

/**
 * The job event log: every status change of every job, one subject per job
 * (`job.events.<jobId>`), and its converts' progress (`job.events.<jobId>.progress`),
 * kept (not a work queue) so a gateway can replay what a reconnecting client
 * missed (`Last-Event-ID` = stream sequence).
 */
export const JOB_EVENTS_STREAM = {
  name: 'JOB_EVENTS',
  subjects: [Subjects.jobEventsAll],
  /**
   * A job changes status a handful of times; this bounds a runaway job. Its
   * progress subject keeps as many: the latest ones are what a resume needs.
   */
  maxMessagesPerSubject: 64,
  /** As long as results are kept by default. */
  maxAgeMs: 24 * 3_600_000,
  duplicateWindowMs: 120_000,
} as const;

/**
 * Dead letters: messages a service gave up on (a webhook delivery whose
 * attempts are spent, an outcome the orchestrator cannot apply), one
 * `DeadLetter` each on `dead-letters.<source>`. Kept (not a work queue) for
 * operators to read and replay; bounded by age and count so a storm of
 * failures cannot fill the disk. Every writer and the admin CLI ensure it.
 */
export const DEAD_LETTERS_STREAM = {
  name: 'DEAD_LETTERS',
  subjects: [Subjects.deadLettersAll],
  maxAgeMs: 14 * 24 * 3_600_000,
  maxMessages: 100_000,
  duplicateWindowMs: 120_000,
} as const;

/** Where a dead letter came from: the `source` field and the last subject token. */
export const DeadLetterSources = {
  webhookDispatcher: 'webhook-dispatcher',
  orchestrator: 'job-orchestrator',
  /** A worker pool (importer, exporter, converter-<family>): task work it could not read or report on. */
  workerPool: (durable: string) => durable,
} as const;

/** Durable consumer names; one per worker pool. */
export const Consumers = {
  importer: 'importer',
  converter: (family: string) => `converter-${family}`,
  exporter: 'exporter',
  orchestrator: 'job-orchestrator',
  webhookDispatcher: 'webhook-dispatcher',
} as const;

/** KV bucket where each running converter family keeps its manifest. */
export const CATALOGUE_MANIFESTS_BUCKET = 'catalogue_manifests';

/**
 * The orchestrator's live job store (JetStream KV, one key per job) and the
 * set of started jobs not yet finalized (one subject per job, purged when the
 * job is), which is all the reconciler reads.
 */
export const LIVE_JOBS = {
  jobsBucket: 'jobs',
  /** `<hex account id>.<jobId>` -> empty: an account's jobs without a scan. */
  indexBucket: 'jobs_by_account',
  activeStream: 'JOBS_ACTIVE',
  activeSubject: (jobId: string) => `jobs.active.${jobId}`,
} as const;

/**
 * Fair scheduling of conversions (docs/decisions.md, "Fair scheduling"): how
 * many of an account's converts hold a slot (dispatched and not ended), and
 * the account's converts waiting for one, in order. Only the orchestrator
 * reads and writes them.
 */
export const CONVERT_FAIRNESS = {
  /** `<hex account id>` -> the holders of that account's slots. */
  slotsBucket: 'convert_slots',
  waitingStream: 'CONVERT_WAITING',
  /** One subject per account: its waiting converts in the order they became ready. */
  waitingSubject: (accountToken: string) => `convert.waiting.${accountToken}`,
} as const;
