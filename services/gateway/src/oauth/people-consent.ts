import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { CSRF_FORM_FIELD, CsrfTokens } from '../sessions/csrf';
import { PeopleSessions } from '../sessions/sessions';
import { ConsentForms } from './consent-forms';
import { PersonSessions, type SignedInPerson } from './person-sessions';

/** The website's sign-in and CSRF tokens, as the consent screen uses them. */
@Injectable()
export class PeopleConsent implements PersonSessions, ConsentForms {
  constructor(
    private readonly sessions: PeopleSessions,
    private readonly csrf: CsrfTokens,
  ) {}

  currentPerson(request: Request): Promise<SignedInPerson | null> {
    return this.sessions.currentPerson(request);
  }

  csrfFields(request: Request, response: Response): string {
    const token = this.csrf.tokenFor(request, response);
    return `<input type="hidden" name="${CSRF_FORM_FIELD}" value="${token.replace(/[^A-Za-z0-9_-]/g, '')}">`;
  }

  verify(request: Request): boolean {
    return this.csrf.fromOwnOrigin(request) && this.csrf.hasValidToken(request);
  }
}
