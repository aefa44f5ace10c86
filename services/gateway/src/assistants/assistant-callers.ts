import { Injectable } from '@nestjs/common';
import { create } from '@bufbuild/protobuf';
import {
  type AuthenticatedCaller,
  AuthenticatedCallerSchema,
  type AuthenticateCallerRequest,
  CallerPrincipalSchema,
  ErrorCode,
  RateLimitWindowSchema,
  ServiceFailure,
} from '@transmute/contracts';
import { AccountsService } from '../accounts';
import { ApiKeyAuthenticator, type Principal, principalOf } from '../auth';
import { ClientIpResolver } from '../http/client-ip.resolver';
import { RateLimiter } from '../limits';
import { OAuthGrants, isAccessToken } from '../oauth';

interface Caller {
  principal: Principal;
  via: 'api_key' | 'oauth';
  clientId: string;
  scopes: string[];
}

/**
 * `accounts.mcp.authenticate`: the MCP server's every request. An OAuth
 * access token (checked against its grant and resource on each call, so a
 * revocation counts at once) or an API key (the REST API's authenticator, IP
 * rules included); then the same rate limit as the REST API.
 */
@Injectable()
export class AssistantCallers {
  constructor(
    private readonly grants: OAuthGrants,
    private readonly apiKeys: ApiKeyAuthenticator,
    private readonly accounts: AccountsService,
    private readonly clientIps: ClientIpResolver,
    private readonly limiter: RateLimiter,
  ) {}

  /** The caller, counted against its rate-limit window (`allowed` false past it); refusals throw. */
  async authenticate(request: AuthenticateCallerRequest): Promise<AuthenticatedCaller> {
    const caller = await this.identify(request);
    const decision = await this.limiter.consume(caller.principal.keyId, caller.principal.rateLimitPerMinute);
    const rateLimit = create(RateLimitWindowSchema, { limit: decision.limit, remaining: decision.remaining, resetSeconds: decision.resetSeconds });
    const { principal } = caller;
    const value = create(CallerPrincipalSchema, {
      accountId: principal.accountId,
      keyId: principal.keyId,
      plan: principal.plan,
      convertAllowance: principal.convertAllowance,
      rateLimitPerMinute: principal.rateLimitPerMinute,
      via: caller.via,
      clientId: caller.clientId,
      scopes: caller.scopes,
    });
    return create(AuthenticatedCallerSchema, { principal: value, rateLimit, allowed: decision.allowed });
  }

  private async identify(request: AuthenticateCallerRequest): Promise<Caller> {
    const credential = request.credential.trim();
    if (!credential) throw new ServiceFailure(ErrorCode.UNAUTHENTICATED, 'missing credential: send an OAuth access token or an API key as a bearer token');
    if (isAccessToken(credential)) {
      const access = await this.grants.verifyAccess(credential, request.resource);
      const account = access ? await this.accounts.findAccount(access.grant.accountId) : null;
      if (!access || !account) throw new ServiceFailure(ErrorCode.UNAUTHENTICATED, 'the access token is invalid, expired, revoked or for another resource');
      const principal = principalOf(account._id, `oauth-${access.grant.grantId}`, this.accounts.planOf(account));
      return { principal, via: 'oauth', clientId: access.clientId, scopes: access.grant.scopes };
    }
    const clientIp = this.clientIps.ofAddress(request.clientIp, request.forwardedFor || undefined);
    const principal = await this.apiKeys.authenticate(credential, { clientIp });
    if (!principal) throw new ServiceFailure(ErrorCode.UNAUTHENTICATED, 'missing or invalid API key or access token');
    return { principal, via: 'api_key', clientId: '', scopes: [] };
  }
}
