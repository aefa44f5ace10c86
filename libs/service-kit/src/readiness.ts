import { Injectable } from '@nestjs/common';

/** A check's verdict; `detail` says what `/readyz` shows (why it is down, or what it is waiting for). */
export interface ReadinessState {
  ready: boolean;
  detail?: string;
}

export type ReadinessCheck = () => Promise<boolean | ReadinessState>;

/**
 * Modules that hold a connection register a check here; `/readyz` is up only
 * when every check passes and the service is not shutting down.
 */
@Injectable()
export class ReadinessRegistry {
  private readonly checks = new Map<string, ReadinessCheck>();
  private draining = false;

  register(name: string, check: ReadinessCheck): void {
    this.checks.set(name, check);
  }

  /** Called on SIGTERM: the service stops being a target for new work. */
  markDraining(): void {
    this.draining = true;
  }

  get isDraining(): boolean {
    return this.draining;
  }

  entries(): [string, ReadinessCheck][] {
    return [...this.checks.entries()];
  }
}
