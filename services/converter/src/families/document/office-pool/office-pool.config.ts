import { z } from 'zod';
import { type ConfigOf, envVar, positiveInt } from '@transmute/service-kit';
import { type EngineSupervisorConfig, engineSupervisorConfig } from '../../../engine/supervisor/engine-supervisor.config';

/** Settings of the document family's warm LibreOffice pool, read when the family is created. */
export const officePoolConfig = {
  ...engineSupervisorConfig,
  size: envVar('TRANSMUTE_OFFICE_POOL_SIZE', positiveInt().max(16).default(2), 'Warm LibreOffice processes the document family keeps (one per concurrent conversion).'),
  maxConversions: envVar(
    'TRANSMUTE_OFFICE_MAX_CONVERSIONS',
    positiveInt().default(200),
    'Conversions one LibreOffice process serves before it is restarted (bounds leaks and profile growth).',
  ),
  timeoutMs: envVar(
    'TRANSMUTE_OFFICE_TIMEOUT_MS',
    positiveInt().min(1_000).default(120_000),
    'A LibreOffice conversion still running after this long is killed with its process and the slot restarted.',
  ),
  python: envVar(
    'TRANSMUTE_OFFICE_PYTHON',
    z.string().min(1).default('/usr/bin/python3'),
    "Python interpreter that has LibreOffice's `uno` module (Debian: python3-uno for /usr/bin/python3).",
  ),
  soffice: envVar('TRANSMUTE_OFFICE_BINARY', z.string().min(1).default('soffice'), 'The LibreOffice program (name on PATH or absolute path).'),
  profileRoot: envVar(
    'TRANSMUTE_OFFICE_PROFILE_DIR',
    z.string().min(1).optional(),
    'Parent directory of the per-process LibreOffice profiles; default: a fresh directory under the system temp dir.',
  ),
};

export type OfficePoolConfig = ConfigOf<typeof officePoolConfig>;

/** What the pool needs: the configuration, with the profile directory and the supervisor's settings optional for tests and the benchmark. */
export type OfficePoolSettings = Omit<OfficePoolConfig, 'profileRoot' | keyof EngineSupervisorConfig> & { profileRoot?: string } & Partial<EngineSupervisorConfig>;
