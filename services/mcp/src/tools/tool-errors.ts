import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode, asServiceFailure } from '@transmute/contracts';

/** What the assistant should do about each kind of refusal, after the platform's own message. */
const ADVICE: Partial<Record<ErrorCode, string>> = {
  [ErrorCode.INVALID_ARGUMENT]: 'Fix the arguments and call the tool again.',
  [ErrorCode.VALIDATION_FAILED]: 'Fix the arguments (list_formats tells which conversions exist) and call the tool again.',
  [ErrorCode.NOT_FOUND]: 'Check the id; get_job only knows jobs of this account from the last 24 hours.',
  [ErrorCode.QUOTA_EXCEEDED]: "The account's quota is used up: tell the person; they can wait for the allowance to renew or change plan on the dashboard. Do not retry now.",
  [ErrorCode.RATE_LIMITED]: 'Too many requests: wait the given time, then retry.',
  [ErrorCode.PAYLOAD_TOO_LARGE]: 'The file is too large for the platform; tell the person.',
  [ErrorCode.UNAVAILABLE]: 'A platform service is temporarily unavailable: retry in a few seconds.',
  [ErrorCode.FORBIDDEN]: 'This credential may not do that; tell the person.',
  [ErrorCode.INTERNAL]: 'The platform failed unexpectedly: retry once, then tell the person.',
};

/** A tool error (isError) the assistant can act on: the platform's message and the next step. */
export function toolError(message: string, advice: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: `${message}. ${advice}` }] };
}

/** `advice` replaces the default next step for some error classes (a tool's own reading of them). */
export function toolErrorOf(error: unknown, advice: Partial<Record<ErrorCode, string>> = {}): CallToolResult {
  const failure = asServiceFailure(error);
  return toolError(failure.message, advice[failure.code] ?? ADVICE[failure.code] ?? 'Retry once, then tell the person.');
}
