import type { Request } from 'express';

/** The person signed in on the website, as the OAuth consent needs them. */
export interface SignedInPerson {
  personId: string;
  accountId: string;
  email: string;
}

/**
 * Reads the website's session cookie. Bound to the people module's
 * PeopleSessions in OAuthModule.
 */
export abstract class PersonSessions {
  abstract currentPerson(request: Request): Promise<SignedInPerson | null>;
}
