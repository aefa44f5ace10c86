import { Injectable, type OnModuleInit } from '@nestjs/common';
import * as argon2 from 'argon2';

/**
 * argon2id with OWASP's first recommended setting (19 MiB, 2 passes, 1 lane):
 * about 20-40 ms per hash on one core, so a sign-in costs little but a
 * stolen hash costs an attacker the same per guess.
 */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

@Injectable()
export class PasswordHasher implements OnModuleInit {
  /** Checked against when the address is unknown, so both answers take as long. */
  private decoy = '';

  async onModuleInit(): Promise<void> {
    this.decoy = await argon2.hash('decoy password that matches nothing', OPTIONS);
  }

  hash(password: string): Promise<string> {
    return argon2.hash(password, OPTIONS);
  }

  /** `stored` undefined: spends the time of a real check and answers false. */
  async verify(stored: string | undefined, password: string): Promise<boolean> {
    try {
      const matches = await argon2.verify(stored ?? this.decoy, password);
      return stored !== undefined && matches;
    } catch {
      return false;
    }
  }
}
