/**
 * JetStream's "wrong last sequence" codes: someone else wrote the key first.
 * 10071 names the sequence the stream is at. 10164 (read in nats-server
 * 2.15.2's source, clustered streams only) refuses a write whose key already
 * has a write in flight, before either is applied: the same lost race, seen
 * earlier (server/jetstream_batching.go, checkMsgHeadersPreClusteredProposal).
 */
const WRONG_LAST_SEQUENCE = 10071;
const WRONG_LAST_SEQUENCE_IN_FLIGHT = 10164;

/** True when a KV `update(key, value, revision)` or `create` lost a race. */
export function isCasConflict(error: unknown): boolean {
  const code = (error as { api_error?: { err_code?: number } } | null)?.api_error?.err_code;
  return code === WRONG_LAST_SEQUENCE || code === WRONG_LAST_SEQUENCE_IN_FLIGHT;
}
