import { type ConfigOf, envVar, positiveInt } from '@transmute/service-kit';

/** The event stream's own variables, validated when the gateway starts. */
export const eventsConfig = {
  keepAliveMs: envVar('TRANSMUTE_SSE_KEEPALIVE_MS', positiveInt().default(15_000), 'Interval of the keep-alive comment on open event streams (GET /v1/process/jobs/{id}/events).'),
  recheckMs: envVar(
    'TRANSMUTE_SSE_RECHECK_MS',
    positiveInt().default(30_000),
    'How often an open event stream compares itself with the stored job, a safety net for a status change the event log never received.',
  ),
};
export type EventsConfig = ConfigOf<typeof eventsConfig>;
export const EVENTS_CONFIG = Symbol('EVENTS_CONFIG');
