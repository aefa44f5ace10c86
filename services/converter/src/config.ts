import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { FAMILY_NAME_PATTERN } from '@transmute/contracts';
import { workerConfig } from '@transmute/messaging';
import { type ConfigOf, baseConfig, envVar } from '@transmute/service-kit';
import { storageConfig } from '@transmute/storage';
import { DEFAULT_ENGINE_LIMITS } from './engine/engine-limits';
import { DEFAULT_PIXEL_LIMIT } from './engine/pixel-limit';
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
  convertTimeoutMs: envVar(
    'TRANSMUTE_CONVERT_TIMEOUT_MS',
    z.coerce.number().int().min(1_000).default(DEFAULT_ENGINE_LIMITS.timeoutMs),
    'Time limit of one conversion; an engine still running then is killed with its children and the task fails.',
  ),
  convertMemoryMb: envVar(
    'TRANSMUTE_CONVERT_MEMORY_MB',
    z.coerce.number().int().min(0).default(DEFAULT_ENGINE_LIMITS.memoryLimitMb),
    'Address-space ceiling of one engine process in MiB (0: none); engines that reserve large virtual ranges opt out.',
  ),
  maxInputPixels: envVar(
    'TRANSMUTE_MAX_INPUT_PIXELS',
    z.coerce.number().int().min(1).default(DEFAULT_PIXEL_LIMIT),
    'Largest decoded image (width x height) an image conversion accepts; bigger inputs fail the task.',
  ),
};

export type ConverterConfig = ConfigOf<typeof converterConfig>;
