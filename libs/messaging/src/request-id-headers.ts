import { type MsgHdrs, headers } from 'nats';
import { REQUEST_ID_NATS_HEADER, acceptRequestId, currentRequestId } from '@transmute/service-kit';

/** NATS headers carrying the current request id, or undefined outside any request. */
export function requestIdHeaders(): MsgHdrs | undefined {
  const requestId = currentRequestId();
  if (!requestId) return undefined;
  const result = headers();
  result.set(REQUEST_ID_NATS_HEADER, requestId);
  return result;
}

/** The request id a received message carries when it is valid; a fresh one otherwise. */
export function requestIdFrom(received: MsgHdrs | undefined): string {
  return acceptRequestId(received?.get(REQUEST_ID_NATS_HEADER));
}
