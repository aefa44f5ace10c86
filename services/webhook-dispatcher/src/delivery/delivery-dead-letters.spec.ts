import { givenUpReason } from './delivery-dead-letters';

describe('givenUpReason', () => {
  const attempt = (statusCode: number, error = '') => ({ attempt: 1, startedAt: new Date(), statusCode, durationMs: 5, error });

  it('names the attempts spent and what the last one got', () => {
    expect(givenUpReason([attempt(500), attempt(503)], false)).toBe('gave up after 2 attempts; the last one got HTTP 503');
    expect(givenUpReason([attempt(0, 'connect ECONNREFUSED 127.0.0.1:9')], false)).toBe('gave up after 1 attempt; the last one got connect ECONNREFUSED 127.0.0.1:9');
    expect(givenUpReason([attempt(0)], false)).toBe('gave up after 1 attempt; the last one got no response');
  });

  it('says when the target itself is refused', () => {
    expect(givenUpReason([attempt(0, 'target refused: 10.0.0.1 is private')], true)).toBe(
      'the target address is refused (target refused: 10.0.0.1 is private); no further attempt is made',
    );
  });
});
