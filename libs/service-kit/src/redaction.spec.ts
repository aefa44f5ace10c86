import { redactUrl } from './redaction';

describe('redactUrl', () => {
  it.each([
    ['plain path', '/v1/process/jobs', '/v1/process/jobs'],
    ['signed storage url', '/storage/a/b.png?expires=1&signature=abc', '/storage/a/b.png?[redacted]'],
    ['download token', '/v1/download/eyJhIjoxfQ.sig', '/v1/download/[redacted]'],
    ['upload token in query', '/v1/imports/ab/content?token=secret', '/v1/imports/ab/content?[redacted]'],
  ])('%s', (_name, input, expected) => {
    expect(redactUrl(input)).toBe(expected);
  });
});
