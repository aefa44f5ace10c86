import { ApiError } from '../api';

/**
 * A failure in plain words: what happened and, where there is one, what to
 * do. Decided by the HTTP status alone; the server's message is shown, never
 * parsed.
 */
export function explain(error: unknown): { text: string; quota: boolean } {
  if (!(error instanceof ApiError)) return { text: (error as Error).message, quota: false };
  switch (error.status) {
    case 402:
      return { text: `Quota reached: ${error.message}.`, quota: true };
    case 413:
      return { text: `Too big: ${error.message}.`, quota: false };
    case 422:
      return { text: `This conversion was refused: ${error.message}.`, quota: false };
    case 429:
      return { text: `Too many requests: try again in ${error.retryAfter ?? 60} s.`, quota: false };
    default:
      return { text: error.message, quota: false };
  }
}
