import { workerConfig } from '@transmute/messaging';
import { type ConfigOf, baseConfig, envVar, positiveInt } from '@transmute/service-kit';
import { storageConfig } from '@transmute/storage';

export const importerConfig = {
  ...baseConfig(8082),
  ...storageConfig(),
  ...workerConfig({ concurrency: 8, ackWaitMs: 30_000 }),
  maxBase64Bytes: envVar(
    'TRANSMUTE_MAX_BASE64_BYTES',
    positiveInt().default(50 * 1024 * 1024),
    'Largest decoded import/base64 file, in bytes.',
  ),
};

export type ImporterConfig = ConfigOf<typeof importerConfig>;
