/**
 * Quota, metered exactly: daily conversions counted at job creation (20
 * concurrent creations against 3 left admit 3), GB metered when converts run
 * (20 concurrent jobs against an allowance with room for 2 spend exactly 2),
 * downloads (the first free, later ones metered, then 402), 402 on creation
 * once nothing is left, and sandbox using nothing.
 */
import { connect, type NatsConnection } from 'nats';
import { TransmuteClient, type Job, taskOf, uploadConvertExport, toneWav, waitForJob } from '../support';
import { platformFixture } from '../support/platform-fixture';
import { LIMIT_PLANS, accountWithKey, admin, call, charge } from './limits-support';

// The audio family: its sources are generated here in a few lines (a WAV tone), and it converts fast.
const env = platformFixture({ name: 'limits-quota', families: ['audio'], extraEnv: { TRANSMUTE_PLANS: JSON.stringify(LIMIT_PLANS) } });

const ALLOWANCE_BYTES = 1_500_000; // e2e-bytes: 1 MB monthly + 0.5 MB additional
const JOB_TIMEOUT_MS = 120_000;

const sample = { bytes: toneWav() };
let nats: NatsConnection;
beforeAll(async () => {
  nats = await connect({ servers: env().platform.env['TRANSMUTE_NATS_URL'] });
});
afterAll(async () => {
  await nats?.close();
});

/** Spends bytes the way the orchestrator does (accounts.usage.charge over NATS request/reply). */
const spend = (accountId: string, bytes: number, chargeId: string) => charge(nats, accountId, bytes, chargeId);

const usageOf = (accountId: string) => admin(env().platform, 'usage', 'show', accountId);

/**
 * Creates a wav -> mp3 job, uploads the sample, completes the upload; or,
 * when what the quota has left no longer holds the sample, the upload's 413.
 */
async function startJob(client: TransmuteClient, tag: string): Promise<Job | { refusedUpload: string }> {
  const created = await client.createJob(uploadConvertExport('wav', 'mp3', tag));
  const form = taskOf(created, 'import-my-file').result?.form;
  if (!form) throw new Error(`no upload form on ${created.id}`);
  const uploaded = await client.upload(form, sample.bytes);
  if (uploaded.status === 413) return { refusedUpload: (uploaded.json as { message: string }).message };
  if (uploaded.status !== 200) throw new Error(`upload of ${created.id} answered ${uploaded.status}`);
  return client.completeUpload(created.id);
}

const ended = (client: TransmuteClient, jobId: string) =>
  waitForJob(client, jobId, (job) => job.status === 'finished' || job.status === 'failed', JOB_TIMEOUT_MS, {
    stopOnTerminal: false,
    intervalMs: 500,
    waitingFor: 'the job to end',
  });

describe('quota metering', () => {
  it('counts daily conversions at creation exactly: 20 concurrent jobs against 3 left admit 3, the rest get 402', async () => {
    const { accountId, key } = await accountWithKey(env().platform, 'e2e-daily');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call(env().platform.baseUrl, 'POST', '/v1/process/jobs', key, uploadConvertExport('wav', 'mp3', `daily-${i}`))),
    );
    const created = answers.filter((answer) => answer.status === 201);
    const refused = answers.filter((answer) => answer.status === 402);
    expect({ created: created.length, refused: refused.length }).toEqual({ created: 3, refused: 17 });
    expect(refused[0]?.body).toEqual({ status: 'error', message: expect.stringContaining('daily conversions allowance used up') });
    expect(await usageOf(accountId)).toMatchObject({ dailyConversionsUsed: 3, dailyConversionsAllowance: 3 });
  });

  it('does not count the conversions of a job that failed validation', async () => {
    const { accountId, key } = await accountWithKey(env().platform, 'e2e-daily');
    const invalid = await call(env().platform.baseUrl, 'POST', '/v1/process/jobs', key, {
      tasks: { in: { operation: 'import/upload' }, c: { operation: 'convert', input: 'nowhere', output_format: 'mp3' } },
    });
    expect(invalid.status).toBe(422);
    expect((await usageOf(accountId)).dailyConversionsUsed).toBe(0);
  });

  it('meters GB when converts run, exactly under concurrency, then 402 on downloads past the free first one and on creation', async () => {
    const { accountId, key } = await accountWithKey(env().platform, 'e2e-bytes');
    const client = new TransmuteClient(env().platform.baseUrl, key);
    const size = sample.bytes.length;
    // Nearly spent: room for two sources and a half.
    const leave = Math.floor(2.5 * size);
    expect((await spend(accountId, ALLOWANCE_BYTES - leave, 'e2e-prespend')).usage).toBeDefined();

    const started = await Promise.all(Array.from({ length: 20 }, (_, i) => startJob(client, `bytes-${i}`)));
    // An upload that came after two converts had spent the room is refused at once (the ceiling is the remaining quota).
    const refusedUploads = started.filter((job): job is { refusedUpload: string } => 'refusedUpload' in job);
    for (const refused of refusedUploads) expect(refused.refusedUpload).toMatch(/larger than what is left of this account's quota/);
    const jobs = started.filter((job): job is Job => !('refusedUpload' in job));
    const results = await Promise.all(jobs.map((job) => ended(client, job.id)));
    const finished = results.filter((job) => job.status === 'finished');
    const failed = results.filter((job) => job.status === 'failed');
    expect({ finished: finished.length, failedOrRefused: failed.length + refusedUploads.length }).toEqual({ finished: 2, failedOrRefused: 18 });
    for (const job of failed) {
      expect(taskOf(job, 'convert-my-file').result?.error ?? job.error).toMatch(/monthly and additional GB allowance used up/);
    }
    const afterJobs = await usageOf(accountId);
    const spentAfterJobs = afterJobs.monthlyUsedBytes + afterJobs.additionalUsedBytes;
    expect(spentAfterJobs).toBe(ALLOWANCE_BYTES - leave + 2 * size);
    expect(spentAfterJobs).toBeLessThanOrEqual(ALLOWANCE_BYTES);

    // Downloads: the first of a file is free; every later one is metered until 402.
    const link = taskOf(finished[0] as Job, 'export-my-file').result?.url as string;
    const first = await call(env().platform.baseUrl, 'GET', new URL(link).pathname, null);
    expect(first.status).toBe(302);
    expect((await usageOf(accountId)).additionalUsedBytes + (await usageOf(accountId)).monthlyUsedBytes).toBe(spentAfterJobs);
    const statuses: number[] = [];
    let refusal: any;
    for (let i = 0; i < 200 && !refusal; i += 1) {
      const again = await call(env().platform.baseUrl, 'GET', new URL(link).pathname, null);
      statuses.push(again.status);
      if (again.status === 402) refusal = again.body;
    }
    expect(refusal).toEqual({ status: 'error', message: expect.stringMatching(/^download beyond the free first one: monthly and additional GB allowance used up/) });
    expect(statuses.slice(0, -1).every((status) => status === 302)).toBe(true);
    const afterDownloads = await usageOf(accountId);
    expect(afterDownloads.monthlyUsedBytes + afterDownloads.additionalUsedBytes).toBeLessThanOrEqual(ALLOWANCE_BYTES);
    expect(afterDownloads.monthlyUsedBytes + afterDownloads.additionalUsedBytes).toBeGreaterThan(spentAfterJobs);

    // Spend the last bytes: job creation now answers 402 naming the allowance.
    const left = ALLOWANCE_BYTES - afterDownloads.monthlyUsedBytes - afterDownloads.additionalUsedBytes;
    if (left > 0) expect((await spend(accountId, left, 'e2e-last-bytes')).usage).toBeDefined();
    const refused = await call(env().platform.baseUrl, 'POST', '/v1/process/jobs', key, uploadConvertExport('wav', 'mp3', 'no-quota'));
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 402,
      body: { status: 'error', message: expect.stringContaining('monthly and additional GB allowance used up') },
    });

    // Sandbox uses nothing, even for an exhausted account.
    const before = await usageOf(accountId);
    const sandbox = await call(env().platform.baseUrl, 'POST', '/v1/process/jobs', key, { ...uploadConvertExport('wav', 'mp3'), sandbox: true });
    expect(sandbox.status).toBe(200);
    expect(await usageOf(accountId)).toEqual(before);
  });

  it('holds a direct upload to the remaining quota when the bytes arrive: 413 in the Error shape, nothing stored', async () => {
    const { accountId, key } = await accountWithKey(env().platform, 'e2e-bytes');
    const client = new TransmuteClient(env().platform.baseUrl, key);
    const size = sample.bytes.length;
    // Room for one sample and a half; the link is handed out now.
    expect((await spend(accountId, ALLOWANCE_BYTES - Math.floor(1.5 * size), 'e2e-ceiling-prespend')).usage).toBeDefined();
    const created = await client.createJob(uploadConvertExport('wav', 'mp3', 'ceiling'));
    const form = taskOf(created, 'import-my-file').result!.form!;

    // Twice the sample is over what is left: refused before a byte is stored, so the job still waits for its file.
    const tooBig = await client.upload(form, Buffer.concat([sample.bytes, sample.bytes]));
    expect(tooBig.status).toBe(413);
    expect(tooBig.json).toEqual({ status: 'error', message: expect.stringMatching(/larger than what is left of this account's quota/) });
    expect((await client.completeUploadReply(created.id)).status).toBe(409);

    // Another spend after the link was made: the sample itself no longer fits, and the same link says so.
    expect((await spend(accountId, size, 'e2e-ceiling-later')).usage).toBeDefined();
    expect((await client.upload(form, sample.bytes)).status).toBe(413);
    expect((await client.completeUploadReply(created.id)).status).toBe(409);
  });

  it('meters each step of a convert -> convert chain: the source, then the intermediate file', async () => {
    const { accountId, key } = await accountWithKey(env().platform, 'e2e-bytes');
    const client = new TransmuteClient(env().platform.baseUrl, key);
    const before = await usageOf(accountId);
    const created = await client.createJob({
      tag: 'chain',
      tasks: {
        'import-my-file': { operation: 'import/upload', filename: 'tone.wav' },
        'to-mp3': { operation: 'convert', input: 'import-my-file', output_format: 'mp3' },
        'to-ogg': { operation: 'convert', input: 'to-mp3', output_format: 'ogg' },
      },
    });
    expect((await client.upload(taskOf(created, 'import-my-file').result!.form!, sample.bytes)).status).toBe(200);
    await client.completeUpload(created.id);
    const finished = await ended(client, created.id);
    expect(finished.status).toBe('finished');

    // The intermediate file as the second step read it (its first download is free, so measuring it costs nothing).
    const intermediate = await client.download(taskOf(finished, 'to-mp3').result!.download_url!);
    expect(intermediate.file.bytes.length).toBeGreaterThan(0);
    const after = await usageOf(accountId);
    const spent = after.monthlyUsedBytes + after.additionalUsedBytes - (before.monthlyUsedBytes + before.additionalUsedBytes);
    expect(spent).toBe(sample.bytes.length + intermediate.file.bytes.length);
  });
});
