import { z } from 'zod';
import { type ConfigOf, baseConfig, envVar, positiveInt } from '@transmute/service-kit';
import { mongoConfig } from '@transmute/persistence';
import { downloadTokenConfig, storageConfig } from '@transmute/storage';
import { usageChargesConfig } from './dispatch/usage-charges.config';

export const orchestratorConfig = {
  ...baseConfig(8081),
  ...mongoConfig(),
  ...storageConfig(),
  ...downloadTokenConfig(),
  ...usageChargesConfig(),
  uploadLinkTtlSeconds: envVar('TRANSMUTE_UPLOAD_LINK_TTL_SECONDS', positiveInt().default(3_600), 'Lifetime of signed upload links.'),
  fileRetentionSeconds: envVar(
    'TRANSMUTE_FILE_RETENTION_SECONDS',
    positiveInt().default(86_400),
    'How long stored files (uploads, imports, results) are kept; download links live as long.',
  ),
  retentionSweepIntervalMs: envVar(
    'TRANSMUTE_RETENTION_SWEEP_INTERVAL_MS',
    positiveInt().default(3_600_000),
    'How often stored files older than TRANSMUTE_FILE_RETENTION_SECONDS are deleted.',
  ),
  dispatchDeadlineMs: envVar('TRANSMUTE_DISPATCH_DEADLINE_MS', positiveInt().default(300_000), 'A task queued this long without a worker starting it is dispatched again.'),
  processingDeadlineMs: envVar('TRANSMUTE_PROCESSING_DEADLINE_MS', positiveInt().default(1_800_000), 'A task processing this long without an outcome is dispatched again.'),
  reconcileIntervalMs: envVar('TRANSMUTE_RECONCILE_INTERVAL_MS', positiveInt().default(15_000), 'How often stuck tasks are looked for.'),
  maxTaskAttempts: envVar('TRANSMUTE_MAX_TASK_ATTEMPTS', positiveInt().default(5), 'Dispatches of one task before it fails for good.'),
  outcomeConcurrency: envVar('TRANSMUTE_OUTCOME_CONCURRENCY', positiveInt().default(8), 'Task outcomes handled at once.'),
  catalogueTimeoutMs: envVar('TRANSMUTE_CATALOGUE_TIMEOUT_MS', positiveInt().default(3_000), 'How long job creation waits for the catalogue.'),
  credentialsKey: envVar(
    'TRANSMUTE_CREDENTIALS_KEY',
    z.string().min(32, { message: 'must be at least 32 characters' }),
    'Key that seals task credentials (S3, SFTP, Google Cloud) in the job store and in work messages; the importer and exporter need the same key to open them.',
    { secret: true },
  ),
  jobsMaxInFlight: envVar(
    'TRANSMUTE_JOBS_MAX_IN_FLIGHT',
    positiveInt().default(64),
    'jobs.* requests one orchestrator answers at once; more are refused at once (503 with Retry-After at the gateway).',
  ),
  outcomeMaxDeliver: envVar(
    'TRANSMUTE_OUTCOME_MAX_DELIVER',
    z.coerce.number().int().min(2).max(100).default(10),
    'Deliveries of one task outcome before it becomes a dead letter and its task fails (about 4 minutes of retries with the default).',
  ),
  outcomeAckWaitMs: envVar('TRANSMUTE_OUTCOME_ACK_WAIT_MS', z.coerce.number().int().min(1_000).default(30_000), 'Redelivery delay of an unacknowledged outcome.'),
};

export type OrchestratorConfig = ConfigOf<typeof orchestratorConfig>;
