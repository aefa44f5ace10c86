import { type CanActivate, type ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { ErrorCode, ServiceFailure } from '@transmute/contracts';
import { ApiKeyAuthenticator, type Principal } from './api-key-authenticator';

/** Where the guard leaves the caller's principal on the request. */
export const PRINCIPAL = Symbol('principal');
export type AuthenticatedRequest = Request & { [PRINCIPAL]?: Principal };

const SANDBOX_NEEDS_NO_KEY = 'transmute:sandbox-needs-no-key';
/** Marks a route whose `sandbox: true` requests are answered without an API key (spec: Authentication). */
export const SandboxNeedsNoKey = () => SetMetadata(SANDBOX_NEEDS_NO_KEY, true);

/** `Authorization: Bearer <key>` or `X-API-Key: <key>`; both are accepted. */
export function apiKeyOf(request: Pick<Request, 'headers'>): string | null {
  const authorization = request.headers.authorization;
  const bearer = typeof authorization === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] : undefined;
  if (bearer) return bearer;
  const header = request.headers['x-api-key'];
  const key = Array.isArray(header) ? header[0] : header;
  return key ? key.trim() || null : null;
}

@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly authenticator: ApiKeyAuthenticator,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (this.reflector.get<boolean>(SANDBOX_NEEDS_NO_KEY, context.getHandler()) && isSandboxRequest(request.body)) return true;
    const key = apiKeyOf(request);
    const principal = key ? await this.authenticator.authenticate(key) : null;
    if (!principal) throw new ServiceFailure(ErrorCode.UNAUTHENTICATED, 'missing or invalid API key');
    request[PRINCIPAL] = principal;
    return true;
  }
}

function isSandboxRequest(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { sandbox?: unknown }).sandbox === true;
}
