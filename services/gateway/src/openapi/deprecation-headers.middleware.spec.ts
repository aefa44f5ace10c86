import type { Request, Response } from 'express';
import type { Deprecation } from '@transmute/api-schema';
import { DeprecationHeadersMiddleware } from './deprecation-headers.middleware';

function headersFor(register: Deprecation[], method: string, path: string): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = { setHeader: (name: string, value: string) => (headers[name] = value) } as unknown as Response;
  let passedOn = false;
  new DeprecationHeadersMiddleware(register).use({ method, originalUrl: `${path}?x=1`, path: '/' } as Request, response, () => (passedOn = true));
  expect(passedOn).toBe(true);
  return headers;
}

describe('DeprecationHeadersMiddleware', () => {
  const formats: Deprecation = { target: { route: 'get /v1/formats' }, deprecatedOn: '2026-12-01', sunsetOn: '2027-06-01', replacement: 'GET /v1/catalogue' };
  const note: Deprecation = { target: { schema: 'Job', property: 'note' }, deprecatedOn: '2027-01-01', sunsetOn: '2027-07-01', replacement: 'sandbox' };

  it.each([
    ['a deprecated route', [formats], 'GET', '/v1/formats', { Deprecation: '@1796083200', Sunset: 'Tue, 01 Jun 2027 00:00:00 GMT' }],
    [
      'a route whose response carries a deprecated field',
      [note],
      'GET',
      `/v1/process/jobs/${'a'.repeat(32)}`,
      { Deprecation: '@1798761600', Sunset: 'Thu, 01 Jul 2027 00:00:00 GMT' },
    ],
    ['another method on a deprecated path', [formats], 'POST', '/v1/formats', {}],
    ['a route untouched by the register', [formats, note], 'GET', '/v1/options', {}],
    ['anything with the shipped, empty register', [], 'GET', '/v1/formats', {}],
  ])('%s', (_name, register: Deprecation[], method, path, expected) => {
    expect(headersFor(register, method, path)).toEqual(expected);
  });
});
