import { randomBytes } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { ErrorCode, ServiceFailure } from '@transmute/contracts';
import { AccountsService } from '../accounts';
import { SignInThrottle } from '../limits';
import type { SignedInPerson } from '../sessions';
import { normaliseEmail, passwordField, passwordProblem } from './credentials';
import { PasswordHasher } from './password-hasher';
import { PeopleRepository, type PersonRecord } from './people.repository';

/** The same answer for a new address and a taken one: neither says which it was. */
export const SIGN_UP_ANSWER = 'if this address was free, its account now exists: sign in with it';
const WRONG_CREDENTIALS = 'wrong email or password';

export interface PersonView {
  personId: string;
  email: string;
  accountId: string;
  createdAt: string;
}

export const personView = (person: PersonRecord): PersonView => ({
  personId: person.personId,
  email: person._id,
  accountId: person.accountId,
  createdAt: new Date(person.createdAt).toISOString(),
});

/**
 * Sign-up and sign-in. A sign-up creates an account (default plan) and the
 * person; a taken address is answered exactly like a new one, after the same
 * argon2id work, so sign-up does not tell who is registered. (A mail server,
 * when one is plugged in, is where a taken address would be told.)
 */
@Injectable()
export class PeopleService {
  private readonly logger = new Logger(PeopleService.name);

  constructor(
    private readonly repository: PeopleRepository,
    private readonly accounts: AccountsService,
    private readonly hasher: PasswordHasher,
    private readonly throttle: SignInThrottle,
  ) {}

  async signUp(input: { email?: unknown; password?: unknown }): Promise<void> {
    const email = normaliseEmail(input.email);
    const password = passwordField(input.password);
    const problem = passwordProblem(password, email);
    if (problem) throw ServiceFailure.validation(problem);
    const passwordHash = await this.hasher.hash(password);
    // Read by _id first, so a taken address creates no orphan account; the insert below still settles races.
    if (await this.repository.findByEmail(email)) return;
    const account = await this.accounts.createAccount({ id: `u-${randomBytes(8).toString('hex')}` });
    const inserted = await this.repository.insert({
      _id: email,
      personId: `p_${randomBytes(12).toString('hex')}`,
      accountId: account._id,
      passwordHash,
      createdAt: new Date(),
    });
    if (!inserted) this.logger.warn({ accountId: account._id }, 'two sign-ups raced for one address; the loser left an unused account');
  }

  /** The person, or 401 with one message for an unknown address and a wrong password alike (429 when throttled). */
  async signIn(input: { email?: unknown; password?: unknown }, clientIp: string): Promise<SignedInPerson> {
    const email = typeof input.email === 'string' ? input.email.trim().toLowerCase() : '';
    const password = passwordField(input.password);
    await this.throttle.check(email, clientIp);
    const person = email ? await this.repository.findByEmail(email) : null;
    const matches = await this.hasher.verify(person?.passwordHash, password);
    if (!person || !matches) {
      await this.throttle.failed(email, clientIp);
      throw new ServiceFailure(ErrorCode.UNAUTHENTICATED, WRONG_CREDENTIALS);
    }
    const account = await this.accounts.findAccount(person.accountId);
    if (!account || account.suspended) throw new ServiceFailure(ErrorCode.FORBIDDEN, 'this account is suspended');
    await this.throttle.succeeded(email);
    return { personId: person.personId, accountId: person.accountId, email: person._id };
  }

  async list(): Promise<PersonView[]> {
    return (await this.repository.list()).map(personView);
  }
}
