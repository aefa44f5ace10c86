/**
 * Every NATS subject the platform uses, declared once.
 * Naming: `<domain>.<verb-or-noun>[.<qualifier>]`.
 */
export const Subjects = {
  jobsCreate: 'jobs.create',
  jobsGet: 'jobs.get',
  jobsCompleteUpload: 'jobs.complete-upload',
  /** An account's jobs within the retention period, newest first (ListJobsRequest -> JobListReply). */
  jobsList: 'jobs.list',
  /** Every status change of a job, kept in the JOB_EVENTS stream for the event stream (replay, any replica). */
  jobEvents: (jobId: string) => `job.events.${jobId}`,
  /**
   * A running convert's progress, in the same stream on a subject of its own,
   * so progress never pushes a job's status changes out of the per-subject limit.
   */
  jobProgress: (jobId: string) => `job.events.${jobId}.progress`,
  /** All jobs' events: what a gateway follows. */
  jobEventsAll: 'job.events.>',

  catalogueFormats: 'catalogue.formats',
  catalogueOptions: 'catalogue.options',
  catalogueRoute: 'catalogue.route',

  tasksImport: 'tasks.import',
  tasksConvert: (family: string) => `tasks.convert.${family}`,
  tasksExport: 'tasks.export',
  tasksOutcomes: 'tasks.outcomes',

  webhooksDeliver: 'webhooks.deliver',
  /** Request/reply to the webhook dispatcher: the delivery log of one job. */
  webhooksDeliveries: 'webhooks.deliveries',

  /** Request/reply to the gateway's accounts module: an account's webhook signing secret. */
  accountsSigningSecret: 'accounts.signing-secret',
  /** Request/reply to the gateway's accounts module: spend quota (bytes, conversions) atomically or refuse. */
  accountsUsageCharge: 'accounts.usage.charge',
  /** Request/reply to the gateway's accounts module: who an MCP bearer credential (OAuth token or API key) is; counts the request. */
  accountsMcpAuthenticate: 'accounts.mcp.authenticate',
  /** Request/reply to the gateway: create the MCP `convert` tool's job with the REST API's validation and quota (-> JobReply). */
  accountsMcpConvert: 'accounts.mcp.convert',

  /** A message some service gave up on (DeadLetter), kept in the DEAD_LETTERS stream; `source` is the service's name. */
  deadLetters: (source: string) => `dead-letters.${source}`,
  /** Every service's dead letters: what the admin CLI reads. */
  deadLettersAll: 'dead-letters.>',
} as const;

/** Converter families are part of subject and consumer names, so they stay simple tokens. */
export const FAMILY_NAME_PATTERN = /^[a-z0-9][a-z0-9-]{0,30}$/;
