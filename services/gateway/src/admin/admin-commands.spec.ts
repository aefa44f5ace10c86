import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { DeadLetterSchema } from '@transmute/contracts';
import { type AdminServices, type ParsedCommand, isKnownCommand, runCommand } from './admin-commands';

describe('admin commands', () => {
  it.each([
    [['accounts', 'create', 'acme'], true],
    [['keys', 'delete', 'abc'], true],
    [['seed-dev'], true],
    [['webhooks', 'deliveries', 'x'], true],
    [['dead-letters', 'list'], true],
    [['dead-letters', 'purge'], false],
    [['accounts'], false],
    [['keys', 'rotate'], false],
    [[], false],
  ])('%j known: %s', (words, known) => {
    expect(isKnownCommand(words)).toBe(known);
  });
});

describe('dead-letters list', () => {
  const letter = create(DeadLetterSchema, {
    id: 'webhook.abc',
    source: 'webhook-dispatcher',
    kind: 'webhook.delivery',
    subject: 'webhooks.deliver',
    jobId: 'job-1',
    deliveryId: 'abc',
    attempts: 5,
    error: 'gave up after 5 attempts; the last one got HTTP 503',
    deadAt: timestampFromDate(new Date('2026-11-26T12:00:00Z')),
    payload: new Uint8Array(42),
  });
  const run = (options: ParsedCommand['options'], read = jest.fn(async () => [letter])) =>
    runCommand({ deadLetters: read } as unknown as AdminServices, { words: ['dead-letters', 'list'], options }).then((output) => ({ output, read }));

  it('prints each letter on one line with its error, and JSON without the payload bytes', async () => {
    const { output, read } = await run({ source: 'webhook-dispatcher', limit: '5' });
    expect(read).toHaveBeenCalledWith({ limit: 5, source: 'webhook-dispatcher' });
    expect(output.text).toBe(
      '2026-11-26T12:00:00.000Z\twebhook-dispatcher\twebhook.delivery\tjob job-1, delivery abc\t5 attempt(s)\tgave up after 5 attempts; the last one got HTTP 503',
    );
    expect(output.json).toEqual([expect.objectContaining({ id: 'webhook.abc', deliveryId: 'abc', attempts: 5, payloadBytes: 42 })]);
    expect(output.json).toEqual([expect.not.objectContaining({ payload: expect.anything() })]);
  });

  it('defaults to the newest 50 and refuses a bad limit', async () => {
    expect((await run({})).read).toHaveBeenCalledWith({ limit: 50 });
    await expect(run({ limit: 'lots' })).rejects.toThrow(/--limit must be a whole number/);
    expect(
      (
        await run(
          {},
          jest.fn(async () => []),
        )
      ).output.text,
    ).toBe('(no dead letters)');
  });
});
