import { JobLocks } from './job-locks';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('JobLocks', () => {
  it('runs actions of one job one after another, in order', async () => {
    const locks = new JobLocks();
    const events: string[] = [];
    const action = (name: string, ms: number) => async () => {
      events.push(`${name}:start`);
      await sleep(ms);
      events.push(`${name}:end`);
    };
    await Promise.all([locks.run('a', action('first', 30)), locks.run('a', action('second', 1))]);
    expect(events).toEqual(['first:start', 'first:end', 'second:start', 'second:end']);
  });

  it('lets different jobs run at the same time', async () => {
    const locks = new JobLocks();
    const events: string[] = [];
    await Promise.all([
      locks.run('a', async () => {
        events.push('a:start');
        await sleep(30);
        events.push('a:end');
      }),
      locks.run('b', async () => {
        events.push('b:start');
        events.push('b:end');
      }),
    ]);
    expect(events.indexOf('b:end')).toBeLessThan(events.indexOf('a:end'));
  });

  it('a failed action does not block the next one, and its error reaches its caller', async () => {
    const locks = new JobLocks();
    await expect(locks.run('a', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(locks.run('a', async () => 'next')).resolves.toBe('next');
  });
});
