import type { IncomingMessage, ServerResponse } from 'node:http';
import { Injectable, type NestMiddleware } from '@nestjs/common';
import { REQUEST_ID_HEADER, REQUEST_ID_NATS_HEADER, acceptRequestId, runWithRequestId } from './request-context';

/**
 * One request id per HTTP request: the caller's valid `X-Request-Id`, or a
 * fresh one. It is echoed in the response, and the rest of the request runs
 * inside it, so log lines and outgoing NATS messages carry it.
 */
@Injectable()
export class RequestIdMiddleware implements NestMiddleware {
  use(req: IncomingMessage & { id?: unknown }, res: ServerResponse, next: () => void): void {
    // pino-http may have chosen the id first (by the same rule); keep one id per request.
    const requestId = typeof req.id === 'string' ? req.id : acceptRequestId(req.headers[REQUEST_ID_HEADER]);
    req.id = requestId;
    res.setHeader(REQUEST_ID_NATS_HEADER, requestId);
    runWithRequestId(requestId, next);
  }
}
