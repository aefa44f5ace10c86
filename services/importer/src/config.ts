import { workerConfig } from '@transmute/messaging';
import { connectorConfig } from '@transmute/connectors';
import { type ConfigOf, baseConfig, envVar, positiveInt } from '@transmute/service-kit';
import { storageConfig } from '@transmute/storage';

/** The spec's import ceiling: 5 GB. */
const DEFAULT_MAX_IMPORT_BYTES = 5 * 1024 ** 3;

export const importerConfig = {
  ...baseConfig(8082),
  ...storageConfig(),
  ...workerConfig({ concurrency: 8, ackWaitMs: 30_000 }),
  ...connectorConfig(),
  maxImportBytes: envVar(
    'TRANSMUTE_MAX_FETCH_BYTES',
    positiveInt().default(DEFAULT_MAX_IMPORT_BYTES),
    'Largest file import/url, s3, sftp and googlecloud bring in, counted on the bytes as they arrive (default 5 GiB).',
  ),
};

export type ImporterConfig = ConfigOf<typeof importerConfig>;
