import { errorReplyFor } from '../errors/error-reply';
import { RateLimitExceeded } from './rate-limit-exceeded';

describe('RateLimitExceeded', () => {
  it('answers 429 with retry_after in the Error body', () => {
    const reply = errorReplyFor(new RateLimitExceeded(17, 60), { method: 'GET', path: '/v1/x' });
    expect(reply.httpStatus).toBe(429);
    expect(reply.body).toEqual({ status: 'error', message: expect.stringContaining('60 requests per minute'), retry_after: 17 });
  });
});
