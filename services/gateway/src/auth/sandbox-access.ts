import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ErrorCode, ServiceFailure, credentialOf } from '@transmute/contracts';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import { ClientIpResolver } from '../http/client-ip.resolver';
import { RequestRateLimits } from '../limits';
import type { GatewayConfig } from '../config';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import type { Principal } from './principal';

/** The rate-limit subject of keyless sandbox calls from one client address (a digest: the address is not kept). */
export function sandboxSubject(clientIp: string): string {
  return `sandbox-${createHash('sha256').update(clientIp, 'utf8').digest('hex').slice(0, 32)}`;
}

/**
 * Who may call sandbox job creation (spec: "no API key is needed"), and how
 * often. Without a key: anyone, counted per client address. With a key: the
 * key must be right (401 otherwise, 403 from an address it does not allow,
 * as on every keyed call) and the call counts against the key's own window.
 * Either way a caller over the limit gets 429, so validation is never free
 * of a limit.
 */
@Injectable()
export class SandboxAccess {
  constructor(
    private readonly authenticator: ApiKeyAuthenticator,
    private readonly clientIps: ClientIpResolver,
    private readonly rateLimits: RequestRateLimits,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<GatewayConfig, 'sandboxRateLimitPerMinute'>,
  ) {}

  /** The caller's principal when it sent a key; undefined for a keyless call. Throws 401, 403 or 429. */
  async admit(request: Request, response: Pick<Response, 'setHeader'>): Promise<Principal | undefined> {
    const clientIp = this.clientIps.of(request);
    const key = credentialOf(request.headers);
    if (!key) {
      await this.rateLimits.admit({ keyId: sandboxSubject(clientIp), rateLimitPerMinute: this.config.sandboxRateLimitPerMinute }, response);
      return undefined;
    }
    const principal = await this.authenticator.authenticate(key, { clientIp });
    if (!principal) throw new ServiceFailure(ErrorCode.UNAUTHENTICATED, 'missing or invalid API key');
    await this.rateLimits.admit(principal, response);
    return principal;
  }
}
