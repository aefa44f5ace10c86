import { isJetStreamSettling, untilJetStreamSettles } from './jetstream-settling';

function failingTimes(times: number, message: string): () => Promise<string> {
  let calls = 0;
  return async () => {
    calls += 1;
    if (calls <= times) throw new Error(message);
    return `after ${calls - 1} failures`;
  };
}

describe('untilJetStreamSettles', () => {
  it.each(['no suitable peers for placement', '503', 'JetStream system temporarily unavailable', 'TIMEOUT'])('waits out "%s"', async (message) => {
    await expect(untilJetStreamSettles(failingTimes(2, message), { what: 'stream TASKS' })).resolves.toBe('after 2 failures');
  });

  it('throws any other error at once', async () => {
    const attempt = jest.fn(failingTimes(1, 'stream name already in use with a different configuration'));
    await expect(untilJetStreamSettles(attempt, { what: 'stream TASKS' })).rejects.toThrow('different configuration');
    expect(attempt).toHaveBeenCalledTimes(1);
  });

  it('gives up with the last error once its time is spent', async () => {
    await expect(untilJetStreamSettles(failingTimes(100, 'no suitable peers for placement'), { what: 'stream TASKS', withinMs: 1_200 })).rejects.toThrow('no suitable peers');
  });

  it('tells a settling cluster from other errors', () => {
    expect(isJetStreamSettling(Object.assign(new Error('whatever'), { code: '503' }))).toBe(true);
    expect(isJetStreamSettling(new Error('consumer not found'))).toBe(false);
    expect(isJetStreamSettling('no suitable peers')).toBe(false);
  });
});
