import { randomBytes, timingSafeEqual } from 'node:crypto';
import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ErrorCode, ServiceFailure } from '@transmute/contracts';
import { CookiePolicy } from './cookie-policy';
import { appendSetCookie, readCookie, serialiseCookie } from './cookies';

/** Where a page sends the token back: this header (fetch) or this form field (HTML forms). */
export const CSRF_HEADER = 'x-csrf-token';
export const CSRF_FORM_FIELD = '_csrf';

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const isSafeMethod = (method: string): boolean => SAFE_METHODS.has(method.toUpperCase());

const newToken = (): string => randomBytes(32).toString('base64url');

function sameToken(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/**
 * Double-submit CSRF tokens plus an Origin check. The token lives in an
 * HttpOnly, SameSite=Strict cookie; pages read it from `GET /web/api/session`
 * (or a server-rendered form gets it from `tokenFor`) and send it back in
 * `X-CSRF-Token` or the `_csrf` form field. A state-changing request must
 * also come from our own origin (Origin, or Referer when Origin is absent).
 */
@Injectable()
export class CsrfTokens {
  constructor(private readonly policy: CookiePolicy) {}

  /** The caller's token, issuing one (Set-Cookie on `response`) when it has none. Put it in forms as `_csrf`. */
  tokenFor(request: Pick<Request, 'headers'>, response: Pick<Response, 'getHeader' | 'setHeader'>): string {
    const existing = this.cookieToken(request);
    return existing ?? this.issue(response);
  }

  /** A fresh token (after sign-in and sign-out, so a token seen before a session cannot be replayed in it). */
  issue(response: Pick<Response, 'getHeader' | 'setHeader'>): string {
    const token = newToken();
    appendSetCookie(response, serialiseCookie(this.policy.csrfCookie, token, { httpOnly: true, sameSite: 'Strict', secure: this.policy.secure }));
    return token;
  }

  /** True when the request sends back, in the header or the `_csrf` body field, the token its cookie holds. */
  hasValidToken(request: Pick<Request, 'headers' | 'body'>): boolean {
    const expected = this.cookieToken(request);
    if (!expected) return false;
    const body = request.body as Record<string, unknown> | undefined;
    const sent = first(request.headers[CSRF_HEADER]) ?? (typeof body?.[CSRF_FORM_FIELD] === 'string' ? body[CSRF_FORM_FIELD] : undefined);
    return sent !== undefined && sameToken(sent, expected);
  }

  /** True when Origin (or, lacking it, Referer) names the public origin or the origin the request was addressed to. */
  fromOwnOrigin(request: Pick<Request, 'headers'>): boolean {
    const origin = first(request.headers.origin) ?? originOf(first(request.headers.referer));
    if (!origin || origin === 'null') return false;
    if (origin === this.policy.publicOrigin) return true;
    // The host the browser addressed (e.g. localhost instead of 127.0.0.1): a cross-site page cannot make its own origin equal it.
    const host = first(request.headers.host);
    const scheme = new URL(this.policy.publicOrigin).protocol;
    return host !== undefined && origin === `${scheme}//${host}`;
  }

  /** Hidden input(s) a server-rendered form carries (the consent screen); may set the cookie on `response`. */
  formFields(request: Pick<Request, 'headers'>, response: Pick<Response, 'getHeader' | 'setHeader'>): string {
    const token = this.tokenFor(request, response);
    return `<input type="hidden" name="${CSRF_FORM_FIELD}" value="${token.replace(/[^A-Za-z0-9_-]/g, '')}">`;
  }

  /** Whether a posted form carries this browser's token and comes from our origin. */
  formIsOwn(request: Pick<Request, 'headers' | 'body'>): boolean {
    return this.fromOwnOrigin(request) && this.hasValidToken(request);
  }

  /** Throws 403 unless a state-changing request carries its token and comes from our origin; safe methods pass. */
  verify(request: Pick<Request, 'headers' | 'body' | 'method'>): void {
    if (isSafeMethod(request.method)) return;
    if (!this.fromOwnOrigin(request)) throw new ServiceFailure(ErrorCode.FORBIDDEN, 'cross-site request refused: it does not come from this site');
    if (!this.hasValidToken(request)) throw new ServiceFailure(ErrorCode.FORBIDDEN, 'missing or wrong CSRF token; reload the page and try again');
  }

  private cookieToken(request: Pick<Request, 'headers'>): string | undefined {
    const token = readCookie(first(request.headers.cookie), this.policy.csrfCookie);
    return token && TOKEN.test(token) ? token : undefined;
  }
}

function originOf(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}

/**
 * Guards a controller or route of the website: every POST, PUT, PATCH or
 * DELETE must carry the CSRF token and come from our origin (403 otherwise).
 * Body fields are read only if a body parser ran before (JSON or urlencoded).
 */
@Injectable()
export class CsrfGuard implements CanActivate {
  constructor(private readonly tokens: CsrfTokens) {}

  canActivate(context: ExecutionContext): boolean {
    this.tokens.verify(context.switchToHttp().getRequest<Request>());
    return true;
  }
}
