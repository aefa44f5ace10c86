import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import { json } from 'body-parser';
import type { NextFunction, Request, Response } from 'express';
import { ErrorCode, ServiceFailure } from '@transmute/contracts';
import { SERVICE_CONFIG } from '@transmute/service-kit';

/** What the JSON body parser reads of the gateway's config. */
export interface JsonBodyConfig {
  maxJsonBodyBytes: number;
}

/** body-parser's errors carry a `type`; we only need that and the status. */
interface BodyParserError {
  type?: unknown;
  status?: unknown;
}

/** Turns a body-parser failure into the failure the client should see. */
export function bodyParserFailure(error: unknown, limitBytes: number): ServiceFailure {
  const { type, status } = (typeof error === 'object' && error !== null ? error : {}) as BodyParserError;
  switch (type) {
    case 'entity.too.large':
      return new ServiceFailure(ErrorCode.PAYLOAD_TOO_LARGE, `request body is larger than ${limitBytes} bytes`);
    case 'entity.parse.failed':
      return new ServiceFailure(ErrorCode.INVALID_ARGUMENT, 'request body is not valid JSON');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ServiceFailure(ErrorCode.INVALID_ARGUMENT, 'request body must be UTF-8 JSON without content encoding');
    case 'request.aborted':
    case 'request.size.invalid':
      return new ServiceFailure(ErrorCode.INVALID_ARGUMENT, 'request body ended before its announced length');
  }
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new ServiceFailure(ErrorCode.INVALID_ARGUMENT, 'malformed request body');
  }
  return new ServiceFailure(ErrorCode.INTERNAL, 'reading the request body failed', false, { cause: error });
}

/**
 * Parses JSON bodies for the modules that opt in (`consumer.apply(JsonBodyMiddleware)`).
 * Body parsing is off app-wide because the storage routes stream raw uploads,
 * whatever their Content-Type, and must find the request untouched.
 */
@Injectable()
export class JsonBodyMiddleware implements NestMiddleware {
  private readonly parse: ReturnType<typeof json>;

  constructor(@Inject(SERVICE_CONFIG) private readonly config: JsonBodyConfig) {
    // Not strict: a bare `42` is valid JSON and deserves "must be an object", not "not JSON".
    this.parse = json({ limit: config.maxJsonBodyBytes, strict: false, type: ['application/json', 'application/*+json'] });
  }

  async use(request: Request, response: Response, next: NextFunction): Promise<void> {
    // Thrown rather than passed to next(), so the app's exception filter answers it.
    await new Promise<void>((resolve, reject) => {
      this.parse(request, response, (error?: unknown) => (error ? reject(bodyParserFailure(error, this.config.maxJsonBodyBytes)) : resolve()));
    });
    next();
  }
}
