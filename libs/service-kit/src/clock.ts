/**
 * The time, as code that decides by it reads it: injected where a rule is
 * about time (token lifetimes), so a test can move the clock instead of
 * waiting an hour or ninety days.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const CLOCK = Symbol('CLOCK');

export const SYSTEM_CLOCK: Clock = { now: () => Date.now() };
