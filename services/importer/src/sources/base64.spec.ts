import { decodeBase64File } from './base64';

describe('decodeBase64File', () => {
  it.each([
    ['plain base64', 'aGVsbG8=', 'hello'],
    ['a data: URI', 'data:image/png;base64,aGVsbG8=', 'hello'],
    ['line-wrapped', 'aGVs\nbG8=', 'hello'],
    ['unpadded base64url', 'aGVsbG8', 'hello'],
  ])('decodes %s', (_name, input, expected) => {
    expect(decodeBase64File(input).toString()).toBe(expected);
  });

  it.each([
    ['empty', ''],
    ['not base64', 'hello world!'],
    ['a bare data: prefix', 'data:image/png;base64,'],
  ])('rejects %s', (_name, input) => {
    expect(() => decodeBase64File(input)).toThrow();
  });
});
