import { isKnownCommand } from './admin-commands';

describe('admin commands', () => {
  it.each([
    [['accounts', 'create', 'acme'], true],
    [['keys', 'delete', 'abc'], true],
    [['seed-dev'], true],
    [['webhooks', 'deliveries', 'x'], true],
    [['accounts'], false],
    [['keys', 'rotate'], false],
    [[], false],
  ])('%j known: %s', (words, known) => {
    expect(isKnownCommand(words)).toBe(known);
  });
});
