import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertProduced, withTimeLimit } from './conversion-guards';

describe('withTimeLimit', () => {
  it('returns the result of a conversion that finishes in time', async () => {
    await expect(withTimeLimit(1_000, new AbortController().signal, async () => 'done')).resolves.toBe('done');
  });

  it('fails a conversion past its deadline, aborting its signal, even if the work ignores the signal', async () => {
    let seen: AbortSignal | undefined;
    const started = Date.now();
    await expect(
      withTimeLimit(1_000, new AbortController().signal, (signal) => {
        seen = signal;
        return new Promise((resolve) => setTimeout(resolve, 5_000).unref());
      }),
    ).rejects.toMatchObject({ retryable: false, message: 'the conversion did not finish within the time limit of 1 s' });
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(seen?.aborted).toBe(true);
  });

  it('turns a release into a retryable cancellation', async () => {
    const released = new AbortController();
    setTimeout(() => released.abort(), 50);
    await expect(withTimeLimit(10_000, released.signal, () => new Promise(() => undefined))).rejects.toMatchObject({ retryable: true });
  });
});

describe('assertProduced', () => {
  it('refuses a missing or empty output and accepts a written one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'guards-'));
    try {
      await expect(assertProduced(join(dir, 'none.pdf'), 'pdf')).rejects.toThrow('produced no pdf file');
      await writeFile(join(dir, 'empty.pdf'), '');
      await expect(assertProduced(join(dir, 'empty.pdf'), 'pdf')).rejects.toThrow('produced no pdf file');
      await writeFile(join(dir, 'ok.pdf'), '%PDF');
      await expect(assertProduced(join(dir, 'ok.pdf'), 'pdf')).resolves.toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
