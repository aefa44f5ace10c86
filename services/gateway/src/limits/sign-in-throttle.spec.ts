import { FREE_FAILURES, waitAfter } from './sign-in-throttle';

describe('waitAfter', () => {
  it('lets the free failures through, then waits 30 s doubling up to 15 min', () => {
    expect(waitAfter(FREE_FAILURES.email - 1, FREE_FAILURES.email)).toBe(0);
    expect(waitAfter(FREE_FAILURES.email, FREE_FAILURES.email)).toBe(30_000);
    expect(waitAfter(FREE_FAILURES.email + 1, FREE_FAILURES.email)).toBe(60_000);
    expect(waitAfter(FREE_FAILURES.email + 20, FREE_FAILURES.email)).toBe(15 * 60_000);
  });
});
