/**
 * Every NATS subject the platform uses, declared once.
 * Naming: `<domain>.<verb-or-noun>[.<qualifier>]`.
 */
export const Subjects = {
  jobsCreate: 'jobs.create',
  jobsGet: 'jobs.get',
  jobsCompleteUpload: 'jobs.complete-upload',
  /** Core NATS fan-out of every status change, for the event stream. */
  jobEvents: (jobId: string) => `job.events.${jobId}`,

  catalogueFormats: 'catalogue.formats',
  catalogueOptions: 'catalogue.options',
  catalogueRoute: 'catalogue.route',

  tasksImport: 'tasks.import',
  tasksConvert: (family: string) => `tasks.convert.${family}`,
  tasksExport: 'tasks.export',
  tasksOutcomes: 'tasks.outcomes',

  webhooksDeliver: 'webhooks.deliver',
} as const;

/** Converter families are part of subject and consumer names, so they stay simple tokens. */
export const FAMILY_NAME_PATTERN = /^[a-z0-9][a-z0-9-]{0,30}$/;
