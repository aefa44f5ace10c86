/**
 * Overload gets a quick answer: with the orchestrator bounded to a few
 * requests in flight, a burst of clients gets either 201 or 503 with
 * Retry-After, never a hang or a timeout deep inside, and every job that was
 * accepted still finishes.
 */
import { gradientPng, waitForFinished } from '../support';
import { platformFixture } from '../support/platform-fixture';

const BURST = 48;
const env = platformFixture({ name: 'overload', families: ['image'], extraEnv: { TRANSMUTE_JOBS_MAX_IN_FLIGHT: '2' } });

describe('overload', () => {
  it('a burst past what the orchestrator takes at once: 201 or 503 with Retry-After, and every accepted job finishes', async () => {
    const sample = await gradientPng(64, 48);
    const body = {
      tasks: {
        in: { operation: 'import/base64', file: sample.bytes.toString('base64'), filename: 'in.png' },
        c: { operation: 'convert', input: 'in', output_format: 'jpg' },
      },
    };
    const answers = await Promise.all(
      Array.from({ length: BURST }, async () => {
        const started = performance.now();
        const reply = await env().client.request('POST', '/v1/process/jobs', { json: body });
        return { reply, ms: performance.now() - started };
      }),
    );
    const statuses = answers.map(({ reply }) => reply.status);
    expect(statuses.every((status) => status === 201 || status === 503)).toBe(true);
    const shed = answers.filter(({ reply }) => reply.status === 503);
    const accepted = answers.filter(({ reply }) => reply.status === 201);
    const slowest = (some: typeof answers) => Math.max(0, ...some.map(({ ms }) => ms)).toFixed(0);
    process.stdout.write(`[overload] ${accepted.length} accepted (slowest ${slowest(accepted)} ms), ${shed.length} shed (slowest ${slowest(shed)} ms)\n`);
    // Two in flight and 48 at once: some are shed, and they are told so by the job service itself, not by a timeout.
    expect(shed.length).toBeGreaterThan(0);
    expect(accepted.length).toBeGreaterThan(0);
    for (const { reply } of shed) {
      expect(reply.headers.get('retry-after')).toBe('1');
      expect(reply.json).toEqual({ status: 'error', message: expect.stringContaining('busy') });
    }

    const jobIds = accepted.map(({ reply }) => (reply.json as { id: string }).id);
    for (const id of jobIds) {
      const started = await env().client.completeUploadReply(id);
      expect([200, 503]).toContain(started.status);
      if (started.status === 503) await retryUntilStarted(id);
    }
    const ended = await Promise.all(jobIds.map((id) => waitForFinished(env().client, id, 120_000)));
    expect(ended.map((job) => job.status)).toEqual(jobIds.map(() => 'finished'));
  });
});

async function retryUntilStarted(id: string): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const reply = await env().client.completeUploadReply(id);
    if (reply.status === 200) return;
    if (reply.status !== 503) throw new Error(`complete-upload of ${id}: ${reply.status} ${reply.text}`);
  }
  throw new Error(`complete-upload of ${id} kept answering 503`);
}
