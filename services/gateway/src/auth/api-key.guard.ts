import { type CanActivate, type ExecutionContext, Injectable, Optional, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { ErrorCode, ServiceFailure, credentialOf } from '@transmute/contracts';
import { ClientIpResolver } from '../http/client-ip.resolver';
import { RequestRateLimits } from '../limits';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import type { Principal } from './principal';
import { SandboxAccess } from './sandbox-access';
import { WebPrincipalSource } from './web-principal-source';

/** Where the guard leaves the caller's principal on the request. */
export const PRINCIPAL = Symbol('principal');
export type AuthenticatedRequest = Request & { [PRINCIPAL]?: Principal };

const SANDBOX_NEEDS_NO_KEY = 'transmute:sandbox-needs-no-key';
/** Marks a route whose `sandbox: true` requests are answered without an API key (spec: Authentication). */
export const SandboxNeedsNoKey = () => SetMetadata(SANDBOX_NEEDS_NO_KEY, true);

/**
 * Every keyed route: the key (401 missing or wrong, 403 from an address the
 * key is not allowed from; without a key, the website's session or anonymous
 * principal when the request proves it comes from the website), then the key's rate limit (429), shared by all
 * gateway replicas.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly authenticator: ApiKeyAuthenticator,
    private readonly reflector: Reflector,
    private readonly clientIps: ClientIpResolver,
    private readonly rateLimits: RequestRateLimits,
    private readonly sandbox: SandboxAccess,
    @Optional() private readonly website?: WebPrincipalSource,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (this.reflector.get<boolean>(SANDBOX_NEEDS_NO_KEY, context.getHandler()) && isSandboxRequest(request.body)) {
      const caller = await this.sandbox.admit(request, context.switchToHttp().getResponse<Response>());
      if (caller) request[PRINCIPAL] = caller;
      return true;
    }
    const key = credentialOf(request.headers);
    const principal = key ? await this.authenticator.authenticate(key, { clientIp: this.clientIps.of(request) }) : ((await this.website?.principalOf(request)) ?? null);
    if (!principal) throw new ServiceFailure(ErrorCode.UNAUTHENTICATED, 'missing or invalid API key');
    await this.rateLimits.admit(principal, context.switchToHttp().getResponse<Response>());
    request[PRINCIPAL] = principal;
    return true;
  }
}

function isSandboxRequest(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { sandbox?: unknown }).sandbox === true;
}
