import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { errorReplyFor } from './error-reply';

/** Every error of every HTTP route leaves through here, in the spec's Error shape. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('http');

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    const reply = errorReplyFor(error, { method: request.method, path: request.path });
    const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
    if (reply.log === 'error') this.logger.error({ err: cause }, `${request.method} ${request.path} failed`);
    if (reply.log === 'warn') this.logger.warn({ err: cause }, `${request.method} ${request.path}: ${reply.body.message}`);
    if (response.headersSent) {
      // A stream broke half-way: the status is gone, all we can do is cut the connection.
      response.destroy();
      return;
    }
    if (reply.allow) response.setHeader('Allow', reply.allow.join(', '));
    if (reply.retryAfterSeconds !== undefined) response.setHeader('Retry-After', String(reply.retryAfterSeconds));
    response.status(reply.httpStatus).json(reply.body);
  }
}
