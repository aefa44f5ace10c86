import { retryDelayMs } from './retry';

describe('retryDelayMs', () => {
  it.each([
    ['first delivery takes the first entry', [100, 1000], 1, 100],
    ['second delivery takes the second entry', [100, 1000], 2, 1000],
    ['past the schedule keeps the last entry', [100, 1000], 7, 1000],
    ['an empty schedule retries at once', [], 3, 0],
  ])('%s', (_name, schedule, delivery, expected) => {
    expect(retryDelayMs(schedule, delivery)).toBe(expected);
  });
});
