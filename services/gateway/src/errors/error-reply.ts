import { HttpException } from '@nestjs/common';
import { ErrorCode as NatsErrorCode, NatsError } from 'nats';
import { ErrorCode, ServiceFailure } from '@transmute/contracts';
import { allowedMethods } from '../http/allowed-methods';
import { RateLimitExceeded } from '../limits';

/** The spec's Error shape: every failing response of the API carries exactly this. */
export interface ErrorBody {
  status: 'error';
  message: string;
  /** 429 only: whole seconds until the rate-limit window resets (also in Retry-After). */
  retry_after?: number;
}

export interface ErrorReply {
  httpStatus: number;
  body: ErrorBody;
  /** Client mistakes are not logged; faults on our side are. */
  log: 'none' | 'warn' | 'error';
  /** 405: the methods the path does answer (the Allow header). */
  allow?: string[];
  /** 503: seconds after which to try again (the Retry-After header). */
  retryAfterSeconds?: number;
}

/** A service that is away or shedding load is usually back within this: clients wait, then retry. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 1;

/** The one table from error classes to HTTP statuses. */
export const HTTP_STATUS_BY_CODE: Readonly<Record<ErrorCode, number>> = {
  [ErrorCode.UNSPECIFIED]: 500,
  [ErrorCode.INVALID_ARGUMENT]: 400,
  [ErrorCode.UNAUTHENTICATED]: 401,
  [ErrorCode.QUOTA_EXCEEDED]: 402,
  [ErrorCode.FORBIDDEN]: 403,
  [ErrorCode.NOT_FOUND]: 404,
  [ErrorCode.CONFLICT]: 409,
  [ErrorCode.PAYLOAD_TOO_LARGE]: 413,
  [ErrorCode.VALIDATION_FAILED]: 422,
  [ErrorCode.RATE_LIMITED]: 429,
  [ErrorCode.UNAVAILABLE]: 503,
  [ErrorCode.INTERNAL]: 500,
};

/**
 * NATS failing under a request (restarting, disconnected, nobody answering in
 * time): the platform is briefly away, not broken. Reads of the live job
 * store go straight to JetStream, so these can reach a route untranslated.
 */
const TRANSIENT_NATS_CODES: ReadonlySet<string> = new Set([
  NatsErrorCode.Timeout,
  NatsErrorCode.NoResponders,
  NatsErrorCode.ConnectionClosed,
  NatsErrorCode.ConnectionDraining,
  NatsErrorCode.ConnectionRefused,
  NatsErrorCode.ConnectionTimeout,
  NatsErrorCode.Disconnect,
]);

export const NATS_UNAVAILABLE_MESSAGE = 'the platform did not answer in time; try again';

/** What a client sees of a fault on our side: nothing that could leak internals. */
export const INTERNAL_ERROR_MESSAGE = 'internal error';

const reply = (httpStatus: number, message: string, log: ErrorReply['log']): ErrorReply => ({
  httpStatus,
  body: { status: 'error', message },
  log,
});

/**
 * Turns anything a route threw into the HTTP status and Error body the client
 * gets. Our code throws ServiceFailure; HttpExceptions only come from the
 * framework (unknown route, unsupported method), so their text is not reused.
 */
export function errorReplyFor(error: unknown, request: { method: string; path: string }): ErrorReply {
  if (error instanceof ServiceFailure) {
    const httpStatus = HTTP_STATUS_BY_CODE[error.code] ?? 500;
    if (httpStatus === 500) return reply(500, INTERNAL_ERROR_MESSAGE, 'error');
    const answer = reply(httpStatus, error.message, httpStatus === 503 ? 'warn' : 'none');
    if (error instanceof RateLimitExceeded) answer.body.retry_after = error.retryAfterSeconds;
    if (httpStatus === 503) answer.retryAfterSeconds = UNAVAILABLE_RETRY_AFTER_SECONDS;
    return answer;
  }
  if (error instanceof HttpException) {
    const httpStatus = error.getStatus();
    if (httpStatus >= 500) return reply(httpStatus, INTERNAL_ERROR_MESSAGE, 'error');
    if (httpStatus === 404) {
      // A path the API has, asked with a method it does not answer there: 405, naming the ones it does.
      const allowed = allowedMethods(request.path);
      if (allowed.length > 0) return { ...reply(405, `${request.method} is not allowed on ${request.path}; use ${allowed.join(', ')}`, 'none'), allow: allowed };
      return reply(404, `no route ${request.method} ${request.path}`, 'none');
    }
    return reply(httpStatus, error.message, 'none');
  }
  if (error instanceof NatsError && TRANSIENT_NATS_CODES.has(error.code)) {
    return { ...reply(503, NATS_UNAVAILABLE_MESSAGE, 'warn'), retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS };
  }
  return reply(500, INTERNAL_ERROR_MESSAGE, 'error');
}
