import { ErrorCode } from '@transmute/contracts';
import { bodyParserFailure } from './json-body.middleware';

describe('bodyParserFailure', () => {
  it.each([
    ['too large', { type: 'entity.too.large', status: 413 }, ErrorCode.PAYLOAD_TOO_LARGE, 'request body is larger than 1024 bytes'],
    ['not JSON', { type: 'entity.parse.failed', status: 400 }, ErrorCode.INVALID_ARGUMENT, 'request body is not valid JSON'],
    ['gzip body', { type: 'encoding.unsupported', status: 415 }, ErrorCode.INVALID_ARGUMENT, 'request body must be UTF-8 JSON'],
    ['latin-1 body', { type: 'charset.unsupported', status: 415 }, ErrorCode.INVALID_ARGUMENT, 'request body must be UTF-8 JSON'],
    ['aborted upload', { type: 'request.aborted', status: 400 }, ErrorCode.INVALID_ARGUMENT, 'ended before'],
    ['other client error', { type: 'something.new', status: 400 }, ErrorCode.INVALID_ARGUMENT, 'malformed request body'],
    ['server-side failure', new Error('EIO'), ErrorCode.INTERNAL, 'reading the request body failed'],
  ])('%s', (_name, error, code, message) => {
    const failure = bodyParserFailure(error, 1024);
    expect(failure.code).toBe(code);
    expect(failure.message).toContain(message);
  });
});
