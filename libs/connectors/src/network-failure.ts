import { ErrorCode, ServiceFailure } from '@transmute/contracts';
import { AddressRefusedError } from '@transmute/net-guard';

const UNREACHABLE = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'ECONNRESET', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);

/** Only the class of an error travels as the logged cause: SDK errors can echo request details. */
export function safeCause(error: unknown): { name: string; code?: string } {
  const { name, code } = (error ?? {}) as { name?: string; code?: string };
  return { name: name ?? 'Error', ...(code ? { code } : {}) };
}

/**
 * The failures every connector shares: a refused address (permanent) and an
 * unreachable host (retryable; the runner gives up after its deliveries).
 * Null when the error is none of those.
 */
export function networkFailure(error: unknown, where: string): ServiceFailure | null {
  if (error instanceof AddressRefusedError) {
    return new ServiceFailure(ErrorCode.FORBIDDEN, `${where} is not allowed: ${error.message}`);
  }
  const message = (error as Error | undefined)?.message ?? '';
  if (/is not allowed\. Because/.test(message)) {
    return new ServiceFailure(ErrorCode.FORBIDDEN, `${where} is not allowed: it resolves to an address that is not public`);
  }
  const code = findCode(error);
  if (code && UNREACHABLE.has(code)) {
    const reason = code === 'ENOTFOUND' || code === 'EAI_AGAIN' ? 'the host name could not be resolved' : `the host could not be reached (${code})`;
    return new ServiceFailure(ErrorCode.UNAVAILABLE, `${where}: ${reason}`, true, { cause: safeCause(error) });
  }
  if (/timed out|timeout/i.test(message)) {
    return new ServiceFailure(ErrorCode.UNAVAILABLE, `${where}: the host did not answer in time`, true, { cause: safeCause(error) });
  }
  return null;
}

/** The socket error code, on the error, its causes, or (AWS SDK wrappers keep only the text) in its message. */
function findCode(error: unknown): string | undefined {
  let current = error as { code?: unknown; cause?: unknown; errors?: unknown[]; message?: unknown } | undefined;
  for (let depth = 0; current && depth < 4; depth += 1) {
    if (typeof current.code === 'string' && UNREACHABLE.has(current.code)) return current.code;
    const named = typeof current.message === 'string' ? /\b(E[A-Z_]+)\b/.exec(current.message)?.[1] : undefined;
    if (named && UNREACHABLE.has(named)) return named;
    const inner = Array.isArray(current.errors) ? current.errors[0] : undefined;
    current = (current.cause ?? inner) as typeof current;
  }
  return undefined;
}
