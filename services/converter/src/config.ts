import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { FAMILY_NAME_PATTERN } from '@transmute/contracts';
import { workerConfig } from '@transmute/messaging';
import { type ConfigOf, baseConfig, envVar } from '@transmute/service-kit';
import { storageConfig } from '@transmute/storage';
import { FAMILIES } from './families/registry';

export const converterConfig = {
  ...baseConfig(8090),
  ...storageConfig(),
  ...workerConfig({ concurrency: 2, ackWaitMs: 30_000 }),
  family: envVar(
    'TRANSMUTE_CONVERTER_FAMILY',
    z
      .string()
      .regex(FAMILY_NAME_PATTERN)
      .refine((family) => family in FAMILIES, { message: `expected one of: ${Object.keys(FAMILIES).join(', ')}` }),
    'The format family this process converts.',
  ),
  workDir: envVar('TRANSMUTE_WORK_DIR', z.string().default(join(tmpdir(), 'transmute-converter')), 'Scratch space for files being converted.'),
};

export type ConverterConfig = ConfigOf<typeof converterConfig>;
