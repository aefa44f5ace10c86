import { type CanActivate, type ExecutionContext, Injectable, createParamDecorator } from '@nestjs/common';
import type { Request } from 'express';
import { ErrorCode, ServiceFailure } from '@transmute/contracts';
import { type CurrentPerson, PeopleSessions } from './sessions';

const PERSON = Symbol('person');
type PersonRequest = Request & { [PERSON]?: CurrentPerson };

/** 401 unless a person is signed in; the person is then `@SignedInPerson()`. */
@Injectable()
export class SignedInGuard implements CanActivate {
  constructor(private readonly sessions: PeopleSessions) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<PersonRequest>();
    const person = await this.sessions.currentPerson(request);
    if (!person) throw new ServiceFailure(ErrorCode.UNAUTHENTICATED, 'sign in first');
    request[PERSON] = person;
    return true;
  }
}

export const SignedInPerson = createParamDecorator((_data: unknown, context: ExecutionContext): CurrentPerson => {
  const person = context.switchToHttp().getRequest<PersonRequest>()[PERSON];
  if (!person) throw new Error('SignedInGuard did not run before @SignedInPerson()');
  return person;
});
