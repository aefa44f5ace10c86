/** JetStream's "wrong last sequence": someone else wrote the key first. */
const WRONG_LAST_SEQUENCE = 10071;

/** True when a KV `update(key, value, revision)` or `create` lost a race. */
export function isCasConflict(error: unknown): boolean {
  return (error as { api_error?: { err_code?: number } } | null)?.api_error?.err_code === WRONG_LAST_SEQUENCE;
}
