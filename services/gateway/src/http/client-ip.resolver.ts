import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import type { ClientIpConfig } from './client-ip.config';
import { clientIpOf } from './client-ip';
import { IpRuleSet } from './ip-rules';

/** The client's address per TRANSMUTE_TRUSTED_PROXIES (see clientIpOf). */
@Injectable()
export class ClientIpResolver {
  private readonly trusted: IpRuleSet;

  constructor(@Inject(SERVICE_CONFIG) config: ClientIpConfig) {
    this.trusted = new IpRuleSet(config.trustedProxies);
  }

  of(request: Pick<Request, 'headers' | 'socket'>): string {
    return this.ofAddress(request.socket.remoteAddress, request.headers['x-forwarded-for']);
  }

  /** The same, from a request seen by another service (the MCP server passes its peer and X-Forwarded-For). */
  ofAddress(socketAddress: string | undefined, forwardedFor: string | string[] | undefined): string {
    return clientIpOf(socketAddress, forwardedFor, this.trusted);
  }
}
