import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { type AccountRecord, AccountsService } from '../accounts';
import { CookiePolicy } from './cookie-policy';
import { appendSetCookie, readCookie, serialiseCookie } from './cookies';
import { CsrfTokens } from './csrf';
import { SESSION_TTL_MS, SessionStore } from './session-store';

/** The person signed in on a request. */
export interface SignedInPerson {
  personId: string;
  accountId: string;
  email: string;
}

const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/**
 * The website's sessions, for any gateway controller: `signedIn(req)`
 * reads the session cookie (HttpOnly, SameSite=Lax, Secure except on
 * loopback http) and answers null when there is no live session or the
 * account is suspended (checked on every call, so a suspension counts at once).
 */
@Injectable()
export class Sessions {
  constructor(
    private readonly store: SessionStore,
    private readonly accounts: AccountsService,
    private readonly policy: CookiePolicy,
    private readonly csrf: CsrfTokens,
  ) {}

  async signedIn(request: Pick<Request, 'headers'>): Promise<SignedInPerson | null> {
    return (await this.current(request))?.person ?? null;
  }

  /** The person and their account (for callers that need the plan too). */
  async current(request: Pick<Request, 'headers'>): Promise<{ person: SignedInPerson; account: AccountRecord } | null> {
    const token = this.tokenOf(request);
    if (!token) return null;
    const session = await this.store.find(token);
    if (!session) return null;
    const account = await this.accounts.findAccount(session.accountId);
    if (!account || account.suspended) return null;
    return { person: { personId: session.personId, accountId: session.accountId, email: session.email }, account };
  }

  /** Opens a session for `person` on `response` and gives the page a fresh CSRF token (returned). */
  async start(person: SignedInPerson, response: Pick<Response, 'getHeader' | 'setHeader'>): Promise<string> {
    const { token } = await this.store.create(person);
    appendSetCookie(
      response,
      serialiseCookie(this.policy.sessionCookie, token, {
        httpOnly: true,
        sameSite: 'Lax',
        secure: this.policy.secure,
        maxAgeSeconds: Math.floor(SESSION_TTL_MS / 1000),
      }),
    );
    return this.csrf.issue(response);
  }

  /** Ends the request's session everywhere (the store entry goes) and clears the cookie; returns a fresh CSRF token. */
  async end(request: Pick<Request, 'headers'>, response: Pick<Response, 'getHeader' | 'setHeader'>): Promise<string> {
    const token = this.tokenOf(request);
    if (token) await this.store.delete(token);
    appendSetCookie(response, serialiseCookie(this.policy.sessionCookie, '', { httpOnly: true, sameSite: 'Lax', secure: this.policy.secure, maxAgeSeconds: 0 }));
    return this.csrf.issue(response);
  }

  private tokenOf(request: Pick<Request, 'headers'>): string | undefined {
    return readCookie(first(request.headers.cookie), this.policy.sessionCookie);
  }
}
