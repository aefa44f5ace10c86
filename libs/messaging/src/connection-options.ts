import type { ConnectionOptions } from 'nats';

/**
 * What every NATS connection of a service shares. It keeps reconnecting
 * for as long as the service runs. Without `noAsyncTraces`, nats.js builds
 * an Error (a captured stack) for every request and every timer, to
 * decorate a timeout that almost never happens. The cost profile put it at
 * 6-9 % of the gateway's and the orchestrator's CPU. The RPC helper names
 * the subject in its own errors, so a timeout still says what timed out.
 */
export const SERVICE_CONNECTION_OPTIONS = { maxReconnectAttempts: -1, noAsyncTraces: true } as const satisfies ConnectionOptions;
