import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** The HTTP header a client may send (and always gets back), and the NATS header the id travels in. */
export const REQUEST_ID_HEADER = 'x-request-id';
export const REQUEST_ID_NATS_HEADER = 'X-Request-Id';

/** Ids we accept from outside: short, and nothing that could forge a log line or a header. */
const VALID_REQUEST_ID = /^[\w-]{1,64}$/;

interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function isValidRequestId(value: unknown): value is string {
  return typeof value === 'string' && VALID_REQUEST_ID.test(value);
}

/** The given id when it is valid, a fresh one otherwise (an invalid id is dropped, not echoed). */
export function acceptRequestId(given: unknown): string {
  return isValidRequestId(given) ? given : randomUUID();
}

/**
 * Runs `work` with `requestId` as the current request id: every log line it
 * writes carries it, and every NATS request or publish it makes sends it on.
 */
export function runWithRequestId<T>(requestId: string, work: () => T): T {
  return storage.run({ requestId }, work);
}

/** The request id of the work in progress, if it has one. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}
