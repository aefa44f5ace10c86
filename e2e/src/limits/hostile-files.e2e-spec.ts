/**
 * Hostile files sent from outside, through the standard flow (upload,
 * convert, export), each built at test time: a pixel bomb, a truncated PNG,
 * a billion-laughs SVG, a 1.5 GiB zip bomb and an empty file. Each job ends
 * (failed, with a message; the SVG may also render harmlessly) within its
 * bound, and a normal job still converts afterwards: nothing hangs, nothing
 * takes the converter down.
 */
import { type Job, TERMINAL_JOB_STATUSES, gradientPng, taskOf, uploadConvertExport, waitForJob } from '../support';
import { platformFixture } from '../support/platform-fixture';
import { billionLaughsSvg, pixelBombPng, zipBomb } from './hostile-files';

const env = platformFixture({ name: 'hostile-files', families: ['image', 'archive'] });
/** Every hostile job must have ended by then (the converters' own limits are far shorter than the 10 min task limit). */
const ENDS_WITHIN_MS = 120_000;

async function send(name: string, inputFormat: string, outputFormat: string, bytes: Buffer): Promise<{ job: Job; tookMs: number }> {
  const { client } = env();
  const created = await client.createJob(uploadConvertExport(inputFormat, outputFormat, `hostile-${name}`));
  const form = taskOf(created, 'import-my-file').result?.form;
  if (!form) throw new Error('no upload form');
  const startedAt = Date.now();
  expect((await client.upload(form, bytes)).status).toBe(200);
  const started = await client.completeUploadReply(created.id);
  if (started.status !== 200) {
    // Refused before it ran (an empty upload may be): that is ending cleanly too, with the spec's error shape.
    expect(started.json).toEqual({ status: 'error', message: expect.any(String) });
    return { job: { ...created, status: 'failed', error: (started.json as { message: string }).message }, tookMs: Date.now() - startedAt };
  }
  const job = await waitForJob(client, created.id, (current) => current.status === 'finished' || current.status === 'failed', ENDS_WITHIN_MS, { waitingFor: 'finished or failed' });
  return { job, tookMs: Date.now() - startedAt };
}

async function stillConverts(): Promise<void> {
  const { job } = await send('after', 'png', 'jpg', (await gradientPng(64, 48)).bytes);
  expect(job.status).toBe('finished');
}

test.each([
  ['a pixel bomb (30000 x 30000 in ~110 KB)', 'pixel-bomb', 'png', 'jpg', async () => pixelBombPng()],
  ['a truncated PNG', 'truncated', 'png', 'jpg', async () => (await gradientPng(320, 200)).bytes.subarray(0, 400)],
  ['an empty file', 'empty', 'png', 'jpg', async () => Buffer.alloc(0)],
  ['a 1.5 GiB zip bomb', 'zip-bomb', 'zip', 'tgz', zipBomb],
])(
  '%s fails with a message, and the converter keeps serving',
  async (_title, name, inputFormat, outputFormat, make) => {
    const { job, tookMs } = await send(name, inputFormat, outputFormat, await make());
    process.stdout.write(`${name}: ${job.status} after ${tookMs} ms: ${job.error}\n`);
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/\S/);
    expect(tookMs).toBeLessThan(ENDS_WITHIN_MS);
    await stillConverts();
  },
  300_000,
);

test('a billion-laughs SVG ends (refused, or rendered without expanding the entities), and the converter keeps serving', async () => {
  const { job, tookMs } = await send('billion-laughs', 'svg', 'png', billionLaughsSvg());
  process.stdout.write(`billion-laughs: ${job.status} after ${tookMs} ms: ${job.error}\n`);
  expect(TERMINAL_JOB_STATUSES).toContain(job.status);
  if (job.status === 'failed') expect(job.error).toMatch(/\S/);
  expect(tookMs).toBeLessThan(ENDS_WITHIN_MS);
  await stillConverts();
}, 300_000);
