import { nextStep, parseRetryAfter } from './retry-policy';

const SPEC_SCHEDULE = [0, 30_000, 120_000, 600_000, 1_800_000];

describe('nextStep', () => {
  it.each([
    ['a 200 acknowledges', { statusCode: 200 }, 1, { settle: 'delivered' }],
    ['a 204 acknowledges', { statusCode: 204 }, 3, { settle: 'delivered' }],
    ['a 410 stops the retries', { statusCode: 410 }, 1, { settle: 'gone' }],
    ['a 500 on attempt 1 waits 30 s', { statusCode: 500 }, 1, { retryInMs: 30_000 }],
    ['a refused connection on attempt 2 waits 2 min', { statusCode: 0 }, 2, { retryInMs: 120_000 }],
    ['a redirect is not followed: retried', { statusCode: 302 }, 3, { retryInMs: 600_000 }],
    ['attempt 4 failing waits 30 min', { statusCode: 404 }, 4, { retryInMs: 1_800_000 }],
    ['attempt 5 failing gives up', { statusCode: 500 }, 5, { settle: 'failed' }],
    ['Retry-After longer than the step is honoured', { statusCode: 429, retryAfterMs: 90_000 }, 1, { retryInMs: 90_000 }],
    ['Retry-After shorter than the step keeps the step', { statusCode: 503, retryAfterMs: 1_000 }, 1, { retryInMs: 30_000 }],
    ['Retry-After beyond the schedule is capped at its longest step', { statusCode: 503, retryAfterMs: 86_400_000 }, 2, { retryInMs: 1_800_000 }],
    ['Retry-After on a 500 is ignored', { statusCode: 500, retryAfterMs: 90_000 }, 1, { retryInMs: 30_000 }],
  ])('%s', (_name, result, attempt, expected) => {
    expect(nextStep(result, attempt, SPEC_SCHEDULE)).toEqual(expected);
  });

  it('follows a compressed schedule the same way', () => {
    expect([1, 2, 3].map((attempt) => nextStep({ statusCode: 500 }, attempt, [0, 100, 200]))).toEqual([{ retryInMs: 100 }, { retryInMs: 200 }, { settle: 'failed' }]);
  });
});

describe('parseRetryAfter', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  it.each([
    ['seconds', '120', 120_000],
    ['an HTTP date', 'Thu, 01 Jan 2026 00:01:00 GMT', 60_000],
    ['a date in the past', 'Wed, 31 Dec 2025 00:00:00 GMT', 0],
    ['nonsense', 'soon', undefined],
    ['absent', undefined, undefined],
  ])('reads %s', (_name, value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
});
