import { Controller, Get, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AccountQuota } from '../accounts';
import { anonymousAccountId } from '../auth';
import { ClientIpResolver } from '../http/client-ip.resolver';
import { JsonBody } from '../http/json-body.decorator';
import { Plans, RateLimitExceeded, RateLimiter, usageView } from '../limits';
import { CsrfGuard, CsrfTokens, Sessions } from '../sessions';
import { safeNext } from './credentials';
import { PeopleService, SIGN_UP_ANSWER } from './people.service';

/** Sign-ups per client IP per minute (each costs an argon2id hash and an account). */
const SIGN_UPS_PER_MINUTE = 10;

type Fields = { email?: unknown; password?: unknown; next?: unknown };
const fields = (body: unknown): Fields => (typeof body === 'object' && body !== null ? body : {});

/**
 * The website's session API (`/web/api/*`, JSON). Every POST passes CsrfGuard
 * (token + same origin), sign-in included, so no other site can sign a
 * browser in or out.
 */
@Controller('web/api')
@UseGuards(CsrfGuard)
export class PeopleController {
  constructor(
    private readonly people: PeopleService,
    private readonly sessions: Sessions,
    private readonly csrf: CsrfTokens,
    private readonly clientIps: ClientIpResolver,
    private readonly limiter: RateLimiter,
    private readonly quota: AccountQuota,
    private readonly plans: Plans,
  ) {}

  /** Who is signed in (or null) and the CSRF token the page sends back on every change. */
  @Get('session')
  async session(@Req() request: Request, @Res({ passthrough: true }) response: Response) {
    response.setHeader('Cache-Control', 'no-store');
    const person = await this.sessions.signedIn(request);
    return {
      status: 'success',
      csrf_token: this.csrf.tokenFor(request, response),
      person: person && { person_id: person.personId, email: person.email, account_id: person.accountId },
    };
  }

  @Post('signup')
  @HttpCode(201)
  async signUp(@JsonBody() body: unknown, @Req() request: Request, @Res({ passthrough: true }) response: Response) {
    const ip = this.clientIps.of(request);
    const decision = await this.limiter.consume(`signup-${anonymousAccountId(ip)}`, SIGN_UPS_PER_MINUTE);
    if (!decision.allowed) {
      response.setHeader('Retry-After', String(decision.resetSeconds));
      throw new RateLimitExceeded(decision.resetSeconds, decision.limit, `too many sign-ups from this address; try again in ${decision.resetSeconds} s`);
    }
    await this.people.signUp(fields(body));
    return { status: 'success', message: SIGN_UP_ANSWER };
  }

  @Post('signin')
  @HttpCode(200)
  async signIn(@JsonBody() body: unknown, @Req() request: Request, @Res({ passthrough: true }) response: Response) {
    const input = fields(body);
    let person;
    try {
      person = await this.people.signIn(input, this.clientIps.of(request));
    } catch (error) {
      if (error instanceof RateLimitExceeded) response.setHeader('Retry-After', String(error.retryAfterSeconds));
      throw error;
    }
    const csrfToken = await this.sessions.start(person, response);
    return {
      status: 'success',
      csrf_token: csrfToken,
      person: { person_id: person.personId, email: person.email, account_id: person.accountId },
      next: safeNext(input.next),
    };
  }

  @Post('signout')
  @HttpCode(200)
  async signOut(@Req() request: Request, @Res({ passthrough: true }) response: Response) {
    const csrfToken = await this.sessions.end(request, response);
    return { status: 'success', csrf_token: csrfToken };
  }

  /** The caller's usage: the signed-in person's account, or the anonymous per-IP principal's. */
  @Get('usage')
  async usage(@Req() request: Request, @Res({ passthrough: true }) response: Response) {
    response.setHeader('Cache-Control', 'no-store');
    const person = await this.sessions.signedIn(request);
    const accountId = person?.accountId ?? anonymousAccountId(this.clientIps.of(request));
    return { status: 'success', anonymous: person === null, usage: usageView(await this.quota.counters(accountId)) };
  }

  /** The plan a new account starts on (TRANSMUTE_DEFAULT_PLAN), so the site offers the figures the operator configured. */
  @Get('sign-up-plan')
  signUpPlan(@Res({ passthrough: true }) response: Response) {
    response.setHeader('Cache-Control', 'no-store');
    const plan = this.plans.default;
    return {
      status: 'success',
      plan: {
        name: plan.name,
        monthly_bytes: plan.monthlyBytes,
        additional_bytes: plan.additionalBytes,
        daily_conversions: plan.dailyConversions,
        convert_allowance: plan.convertAllowance,
        rate_limit_per_minute: plan.rateLimitPerMinute,
      },
    };
  }
}
