import { workerConfig } from '@transmute/messaging';
import { connectorConfig } from '@transmute/connectors';
import { FETCH_CEILING_BYTES } from '@transmute/contracts';
import { type ConfigOf, baseConfig, envVar, positiveInt } from '@transmute/service-kit';
import { storageConfig } from '@transmute/storage';

export const importerConfig = {
  ...baseConfig(8082),
  ...storageConfig(),
  ...workerConfig({ concurrency: 8, ackWaitMs: 30_000 }),
  ...connectorConfig(),
  maxImportBytes: envVar(
    'TRANSMUTE_MAX_FETCH_BYTES',
    positiveInt().default(FETCH_CEILING_BYTES),
    "Largest file import/url, s3, sftp and googlecloud bring in, counted on the bytes as they arrive (default the spec's 5 GB: 5000000000 bytes).",
  ),
};

export type ImporterConfig = ConfigOf<typeof importerConfig>;
