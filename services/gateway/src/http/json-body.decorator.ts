import { type ExecutionContext, createParamDecorator } from '@nestjs/common';
import type { Request } from 'express';
import { ErrorCode, ServiceFailure } from '@transmute/contracts';

/** The parsed JSON body; a request whose body was not sent as JSON is a 400. */
export const JsonBody = createParamDecorator((_data: unknown, context: ExecutionContext): unknown => {
  const request = context.switchToHttp().getRequest<Request>();
  // JsonBodyMiddleware leaves the body undefined when the Content-Type is not JSON.
  if (request.body === undefined) {
    throw new ServiceFailure(ErrorCode.INVALID_ARGUMENT, 'request body must be JSON sent with Content-Type: application/json');
  }
  return request.body;
});
