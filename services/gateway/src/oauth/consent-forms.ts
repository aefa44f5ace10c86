import type { Request, Response } from 'express';

/**
 * The consent form's CSRF protection, delegated to the website's helper (the
 * same double-submit token as its other forms). Bound in OAuthModule.
 */
export abstract class ConsentForms {
  /** Hidden input(s) to put in the form; may set a cookie on `response`. */
  abstract csrfFields(request: Request, response: Response): string;
  /** Whether the posted form carries a valid token for this browser. */
  abstract verify(request: Request): boolean;
}
