import { connectorConfig } from '@transmute/connectors';
import { workerConfig } from '@transmute/messaging';
import { type ConfigOf, baseConfig, envVar, positiveInt } from '@transmute/service-kit';
import { downloadTokenConfig, storageConfig } from '@transmute/storage';

export const exporterConfig = {
  ...baseConfig(8083),
  ...storageConfig(),
  ...downloadTokenConfig(),
  ...workerConfig({ concurrency: 8, ackWaitMs: 30_000 }),
  ...connectorConfig(),
  fileRetentionSeconds: envVar('TRANSMUTE_FILE_RETENTION_SECONDS', positiveInt().default(86_400), 'How long results stay downloadable; download links live as long.'),
};

export type ExporterConfig = ConfigOf<typeof exporterConfig>;
