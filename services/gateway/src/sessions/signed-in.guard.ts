import { type CanActivate, type ExecutionContext, Injectable, createParamDecorator } from '@nestjs/common';
import type { Request } from 'express';
import { ErrorCode, ServiceFailure } from '@transmute/contracts';
import { Sessions, type SignedInPerson } from './sessions';

const PERSON = Symbol('person');
type PersonRequest = Request & { [PERSON]?: SignedInPerson };

/** 401 unless a person is signed in; the person is then `@SignedIn()`. */
@Injectable()
export class SignedInGuard implements CanActivate {
  constructor(private readonly sessions: Sessions) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<PersonRequest>();
    const person = await this.sessions.signedIn(request);
    if (!person) throw new ServiceFailure(ErrorCode.UNAUTHENTICATED, 'sign in first');
    request[PERSON] = person;
    return true;
  }
}

/** The signed-in person of a route behind SignedInGuard. */
export const SignedIn = createParamDecorator((_data: unknown, context: ExecutionContext): SignedInPerson => {
  const person = context.switchToHttp().getRequest<PersonRequest>()[PERSON];
  if (!person) throw new Error('SignedInGuard did not run before @SignedIn()');
  return person;
});
