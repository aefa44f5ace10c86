import { z } from 'zod';
import { type ConfigOf, baseConfig, envVar, positiveInt } from '@transmute/service-kit';
import { netGuardConfig } from '@transmute/net-guard';
import { mongoConfig } from '@transmute/persistence';

/** The spec's schedule: attempts at 0, 30 s, 2 min, 10 min and 30 min. */
export const SPEC_RETRY_SCHEDULE_MS = [0, 30_000, 120_000, 600_000, 1_800_000];

const scheduleList = z
  .string()
  .regex(/^\d+(,\d+)*$/, { message: 'expected comma-separated milliseconds, e.g. 0,30000,120000,600000,1800000' })
  .transform((value) => value.split(',').map(Number));

export const dispatcherConfig = {
  ...baseConfig(8084),
  ...mongoConfig(),
  allowPrivateNetworks: netGuardConfig().allowPrivateNetworks,
  retryScheduleMs: envVar(
    'TRANSMUTE_WEBHOOK_RETRY_SCHEDULE_MS',
    scheduleList.default(SPEC_RETRY_SCHEDULE_MS),
    'Delay before each attempt of a webhook delivery, in ms; its length is the number of attempts (spec: 0,30000,120000,600000,1800000).',
  ),
  timeoutMs: envVar(
    'TRANSMUTE_WEBHOOK_TIMEOUT_MS',
    positiveInt().default(10_000),
    'How long a receiver has to answer one attempt (connection, status and body); longer counts as a failed attempt.',
  ),
  concurrency: envVar(
    'TRANSMUTE_WEBHOOK_CONCURRENCY',
    positiveInt().default(128),
    'Webhook attempts one dispatcher runs at once (each mostly waits on a receiver, so this is a bound on sockets, not on CPU).',
  ),
  giveUpAfterMs: envVar(
    'TRANSMUTE_WEBHOOK_GIVE_UP_MS',
    positiveInt().default(24 * 3_600_000),
    'A delivery on which no attempt could be made (accounts module or store away) for this long since it was queued ends as a failed delivery and a dead letter.',
  ),
  secretTimeoutMs: envVar(
    'TRANSMUTE_RPC_TIMEOUT_MS',
    positiveInt().default(5_000),
    'How long the dispatcher waits for the accounts module (signing secret) before trying the attempt again later.',
  ),
};

export type DispatcherConfig = ConfigOf<typeof dispatcherConfig>;
