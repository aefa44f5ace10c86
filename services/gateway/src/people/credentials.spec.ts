import { normaliseEmail, passwordProblem, safeNext } from './credentials';

describe('credentials', () => {
  it('normalises addresses and refuses non-addresses', () => {
    expect(normaliseEmail('  Ada@Example.COM ')).toBe('ada@example.com');
    expect(() => normaliseEmail('ada@example')).toThrow(/email/);
    expect(() => normaliseEmail(42)).toThrow(/email/);
  });

  it.each([
    ['short1234', /at least 10/],
    ['a'.repeat(129), /at most 128/],
    ['aaaaaaaaaaaa', /repeated/],
    ['ada@example.com', /email address/],
  ])('refuses %s', (password, problem) => {
    expect(passwordProblem(password, 'ada@example.com')).toMatch(problem);
  });

  it('accepts a decent password', () => {
    expect(passwordProblem('correct horse battery', 'ada@example.com')).toBeNull();
  });

  it.each([
    ['/oauth/authorize?client_id=x', '/oauth/authorize?client_id=x'],
    ['//evil.example/', '/dashboard'],
    ['/\\evil.example', '/dashboard'],
    ['https://evil.example/', '/dashboard'],
    ['/ok\n', '/dashboard'],
    [undefined, '/dashboard'],
  ])('next %j goes to %s', (next, expected) => {
    expect(safeNext(next)).toBe(expected);
  });
});
