import { credentialOf } from './api-credential';

describe('credentialOf', () => {
  it.each([
    ['a bearer token', { authorization: 'Bearer k1' }, 'k1'],
    ['a lowercase scheme', { authorization: 'bearer k1' }, 'k1'],
    ['the X-API-Key header', { 'x-api-key': 'k2' }, 'k2'],
    ['the first of repeated X-API-Key headers', { 'x-api-key': ['k2', 'k3'] }, 'k2'],
    ['bearer first when both are sent', { authorization: 'Bearer k1', 'x-api-key': 'k2' }, 'k1'],
    ['X-API-Key when Authorization is another scheme', { authorization: 'Basic abc', 'x-api-key': 'k2' }, 'k2'],
    ['nothing', {}, null],
    ['an empty bearer', { authorization: 'Bearer ' }, null],
    ['a blank X-API-Key', { 'x-api-key': '  ' }, null],
  ])('%s', (_name, headers, expected) => {
    expect(credentialOf(headers)).toBe(expected);
  });
});
