import { BadRequestException, InternalServerErrorException, MethodNotAllowedException, NotFoundException } from '@nestjs/common';
import { ErrorCode, ServiceFailure } from '@transmute/contracts';
import { ErrorCode as NatsErrorCode, NatsError } from 'nats';
import { HTTP_STATUS_BY_CODE, INTERNAL_ERROR_MESSAGE, NATS_UNAVAILABLE_MESSAGE, errorReplyFor } from './error-reply';

const request = { method: 'GET', path: '/v1/nope' };

describe('errorReplyFor', () => {
  it.each([
    ['INVALID_ARGUMENT', ErrorCode.INVALID_ARGUMENT, 400, 'none'],
    ['UNAUTHENTICATED', ErrorCode.UNAUTHENTICATED, 401, 'none'],
    ['QUOTA_EXCEEDED', ErrorCode.QUOTA_EXCEEDED, 402, 'none'],
    ['FORBIDDEN', ErrorCode.FORBIDDEN, 403, 'none'],
    ['NOT_FOUND', ErrorCode.NOT_FOUND, 404, 'none'],
    ['CONFLICT', ErrorCode.CONFLICT, 409, 'none'],
    ['PAYLOAD_TOO_LARGE', ErrorCode.PAYLOAD_TOO_LARGE, 413, 'none'],
    ['VALIDATION_FAILED', ErrorCode.VALIDATION_FAILED, 422, 'none'],
    ['RATE_LIMITED', ErrorCode.RATE_LIMITED, 429, 'none'],
    ['UNAVAILABLE', ErrorCode.UNAVAILABLE, 503, 'warn'],
  ])('%s keeps its message and answers %s', (_name, code, httpStatus, log) => {
    expect(errorReplyFor(new ServiceFailure(code, 'what went wrong'), request)).toEqual({
      httpStatus,
      body: { status: 'error', message: 'what went wrong' },
      log,
      // Only an unavailable service tells the client when to come back.
      ...(httpStatus === 503 && { retryAfterSeconds: 1 }),
    });
  });

  it.each([
    ['an INTERNAL failure', new ServiceFailure(ErrorCode.INTERNAL, 'mongo at 10.0.0.3 said no')],
    ['an UNSPECIFIED failure', new ServiceFailure(ErrorCode.UNSPECIFIED, 'secret detail')],
    ['a failure with an unknown code', new ServiceFailure(99 as ErrorCode, 'secret detail')],
    ['a plain Error', new Error('secret detail')],
    ['a thrown string', 'secret detail'],
    ['a framework 5xx', new InternalServerErrorException('secret detail')],
  ])('hides the details of %s behind a generic 500', (_name, error) => {
    expect(errorReplyFor(error, request)).toEqual({ httpStatus: 500, body: { status: 'error', message: INTERNAL_ERROR_MESSAGE }, log: 'error' });
  });

  it.each([
    ['an unknown route', new NotFoundException('Cannot GET /v1/nope?signature=x'), 404, 'no route GET /v1/nope'],
    ['a framework 400', new BadRequestException('bad thing'), 400, 'bad thing'],
    ['a framework 405', new MethodNotAllowedException(), 405, 'Method Not Allowed'],
  ])('answers %s in the Error shape', (_name, error, httpStatus, message) => {
    expect(errorReplyFor(error, request)).toEqual({ httpStatus, body: { status: 'error', message }, log: 'none' });
  });

  // Seen under chaos: a job-store read during a NATS restart threw NatsError TIMEOUT, and the client got 500.
  it.each([NatsErrorCode.Timeout, NatsErrorCode.NoResponders, NatsErrorCode.Disconnect, NatsErrorCode.ConnectionClosed, NatsErrorCode.ConnectionRefused])(
    'answers NATS away (%s) 503 with Retry-After, not 500',
    (code) => {
      expect(errorReplyFor(NatsError.errorForCode(code), request)).toEqual({
        httpStatus: 503,
        body: { status: 'error', message: NATS_UNAVAILABLE_MESSAGE },
        log: 'warn',
        retryAfterSeconds: 1,
      });
    },
  );

  it('keeps other NATS errors behind a generic 500', () => {
    expect(errorReplyFor(NatsError.errorForCode(NatsErrorCode.BadJson), request)).toMatchObject({ httpStatus: 500, log: 'error' });
  });

  it('answers a known path asked with another method 405, naming the allowed ones', () => {
    const reply = errorReplyFor(new NotFoundException('Cannot DELETE'), { method: 'DELETE', path: '/v1/process/jobs' });
    expect(reply).toEqual({ httpStatus: 405, body: { status: 'error', message: 'DELETE is not allowed on /v1/process/jobs; use POST' }, log: 'none', allow: ['POST'] });
  });

  it('maps every error code', () => {
    const codes = Object.values(ErrorCode).filter((value): value is ErrorCode => typeof value === 'number');
    for (const code of codes) expect(HTTP_STATUS_BY_CODE[code]).toBeGreaterThanOrEqual(400);
  });
});
