import { Inject, Injectable, type NestMiddleware, Optional } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { DEPRECATIONS, type Deprecation, deprecationForRoute, deprecationHeaders } from '@transmute/api-schema';
import { documentedTemplate } from '../http/allowed-methods';

/** The deprecation register the gateway announces; the shipped one unless a test provides its own. */
export const DEPRECATION_REGISTER = Symbol('DEPRECATION_REGISTER');

/**
 * Announces a deprecation on every response of a route that is deprecated or
 * carries a deprecated field (docs/decisions.md, "Versioning"): `Deprecation`
 * (RFC 9745) and `Sunset` (RFC 8594), set before the handler runs so errors
 * carry them too.
 */
@Injectable()
export class DeprecationHeadersMiddleware implements NestMiddleware {
  constructor(@Optional() @Inject(DEPRECATION_REGISTER) private readonly register: readonly Deprecation[] = DEPRECATIONS) {}

  use(request: Request, response: Response, next: NextFunction): void {
    // Mounted under a route prefix, Express gives `path` relative to it; the whole path is the original URL's.
    const template = this.register.length > 0 ? documentedTemplate(new URL(request.originalUrl, 'http://gateway').pathname) : undefined;
    const entry = template && deprecationForRoute(`${request.method.toLowerCase()} ${template}`, this.register);
    if (entry) for (const [name, value] of Object.entries(deprecationHeaders(entry))) response.setHeader(name, value);
    next();
  }
}
