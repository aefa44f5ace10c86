import { z } from 'zod';
import { type ConfigOf, envVar, positiveInt } from '@transmute/service-kit';

/** What every supervised engine of a converter process shares (one family per process, so one engine in practice). */
export const engineSupervisorConfig = {
  queueLimit: envVar(
    'TRANSMUTE_ENGINE_QUEUE_LIMIT',
    z.coerce.number().int().min(0).default(16),
    'Conversions that may wait for a busy engine process; one more is refused at once and its task redelivered later.',
  ),
  idleStopMs: envVar(
    'TRANSMUTE_ENGINE_IDLE_STOP_MS',
    z.coerce.number().int().min(0).default(1_800_000),
    'Engine processes stop after this long without work and start again with the next conversion (0: never).',
  ),
  failureThreshold: envVar(
    'TRANSMUTE_ENGINE_FAILURE_THRESHOLD',
    positiveInt().default(3),
    'Failed starts in a row after which the engine reports unhealthy (readiness down); a routine restart never counts.',
  ),
};

export type EngineSupervisorConfig = ConfigOf<typeof engineSupervisorConfig>;

export const DEFAULT_SUPERVISOR_CONFIG: EngineSupervisorConfig = { queueLimit: 16, idleStopMs: 1_800_000, failureThreshold: 3 };
