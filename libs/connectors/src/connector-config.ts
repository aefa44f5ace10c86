import { z } from 'zod';
import { envVar, positiveInt } from '@transmute/service-kit';
import { netGuardConfig } from '@transmute/net-guard';

/** Variables of the services that connect to client-given sources and destinations (importer, exporter). */
export function connectorConfig() {
  return {
    ...netGuardConfig(),
    connectTimeoutMs: envVar(
      'TRANSMUTE_CONNECT_TIMEOUT_MS',
      positiveInt().default(15_000),
      'Longest wait to connect to a source or destination (url, S3, SFTP, Google Cloud Storage).',
    ),
    idleTimeoutMs: envVar('TRANSMUTE_TRANSFER_IDLE_TIMEOUT_MS', positiveInt().default(60_000), 'A transfer from or to a source or destination that stalls this long fails.'),
    credentialsKey: envVar(
      'TRANSMUTE_CREDENTIALS_KEY',
      z.string().min(32, { message: 'must be at least 32 characters' }),
      "Opens the task credentials (S3, SFTP, Google Cloud) the orchestrator sealed; the orchestrator's key.",
      { secret: true },
    ),
    gcsApiEndpoint: envVar(
      'TRANSMUTE_GCS_API_ENDPOINT',
      z.union([z.literal(''), z.url()]).default(''),
      'Google Cloud Storage API endpoint for import/googlecloud and export/googlecloud; empty for Google itself (set for fake-gcs-server in tests).',
    ),
  };
}
