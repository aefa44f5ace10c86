/**
 * Webhooks end to end, against a real receiver on loopback: signature,
 * headers and body checked by the receiver code docs/webhooks.md shows; the
 * retry schedule (compressed to 0, 1, 2, 3, 4 s), 410, Retry-After, the
 * time-out, redirects; durability across a SIGKILLed dispatcher; and a
 * signing secret rotated between two attempts of one delivery.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { type Job, type TransmuteClient, gradientPng, taskOf, uploadConvertExport, waitForJob } from '../support';
import { platformFixture } from '../support/platform-fixture';
import { type DocumentedReceiver, loadDocumentedReceiver } from './documented-receiver';
import { type ReceivedRequest, ScriptedReceiver } from './scripted-receiver';
import { adminJson } from './admin-cli';
import { signingSecret } from './signing-secret';

const SCHEDULE_MS = [0, 1_000, 2_000, 3_000, 4_000];
const TIMEOUT_MS = 1_500;
const DISPATCHER = 'webhook-dispatcher';
/** A delivery that cannot be attempted (accounts module away) for this long ends as a dead letter. */
const GIVE_UP_MS = 8_000;
/** How late an attempt may come after its scheduled time (pull, scheduling, a loaded 2-core machine). */
const LATE_TOLERANCE_MS = 1_500;
/** JetStream timers are not early, but clocks and rounding are: allow a little. */
const EARLY_TOLERANCE_MS = 150;

const env = platformFixture({
  name: 'webhooks',
  extraEnv: {
    TRANSMUTE_ALLOW_PRIVATE_NETWORKS: 'true',
    TRANSMUTE_WEBHOOK_RETRY_SCHEDULE_MS: SCHEDULE_MS.join(','),
    TRANSMUTE_WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
    TRANSMUTE_WEBHOOK_GIVE_UP_MS: String(GIVE_UP_MS),
  },
});

let documented: DocumentedReceiver;
let receiver: ScriptedReceiver;
let secret: string;
const handled: Array<{ event: Record<string, unknown>; delivery: string; attempt: number; kind: string }> = [];

beforeAll(async () => {
  documented = loadDocumentedReceiver();
  secret = await signingSecret(env().platform.env, 'dev');
  receiver = new ScriptedReceiver(documented.createWebhookHandler({ secret, onEvent: (event, meta) => handled.push({ event, ...meta }) }));
  await receiver.start();
});
afterAll(async () => {
  await receiver?.stop();
});

interface DeliveryView {
  id: string;
  event: string;
  url: string;
  state: string;
  nextAttemptAt: string | null;
  attempts: Array<{ attempt: number; statusCode: number | null; durationMs: number; error: string | null }>;
}

async function deliveriesOf(client: TransmuteClient, jobId: string): Promise<DeliveryView[]> {
  const reply = await client.request('GET', `/v1/process/jobs/${jobId}/webhooks`);
  if (reply.status !== 200) throw new Error(`GET webhooks: ${reply.status} ${reply.text}`);
  return (reply.json as { deliveries: DeliveryView[] }).deliveries;
}

async function waitForDelivery(client: TransmuteClient, jobId: string, url: string, state: string, timeoutMs: number): Promise<DeliveryView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await deliveriesOf(client, jobId)).find((delivery) => delivery.url === url);
    if (found?.state === state) return found;
    if (Date.now() > deadline) throw new Error(`delivery to ${url} not ${state} within ${timeoutMs} ms: ${JSON.stringify(found)}`);
    await sleep(200);
  }
}

/** upload -> convert -> export/url, plus an export/webhook task (`taskUrl`) and a job-level `webhook_url`. */
async function finishedJob(client: TransmuteClient, targets: { taskUrl?: string; jobUrl?: string }, tag: string): Promise<Job> {
  const request = uploadConvertExport('png', 'jpg', tag);
  if (targets.taskUrl) request.tasks['notify'] = { operation: 'export/webhook', input: ['convert-my-file'], url: targets.taskUrl };
  if (targets.jobUrl) request.webhook_url = targets.jobUrl;
  const job = await client.createJob(request);
  const form = taskOf(job, 'import-my-file').result?.form;
  if (!form) throw new Error('no upload form');
  expect((await client.upload(form, (await gradientPng(64, 48)).bytes)).status).toBe(200);
  await client.completeUpload(job.id);
  return waitForJob(client, job.id, (current) => current.status === 'finished', 60_000, { waitingFor: 'finished' });
}

function gaps(requests: ReceivedRequest[]): number[] {
  return requests.slice(1).map((request, index) => request.at - requests[index]!.at);
}

function expectOnSchedule(requests: ReceivedRequest[], expectedGapsMs: number[]): void {
  const measured = gaps(requests);
  expect(measured).toHaveLength(expectedGapsMs.length);
  measured.forEach((gap, index) => {
    const expected = expectedGapsMs[index]!;
    if (gap < expected - EARLY_TOLERANCE_MS || gap > expected + LATE_TOLERANCE_MS) {
      throw new Error(`gap ${index + 1} was ${gap} ms, expected ${expected} ms (measured ${measured.join(', ')})`);
    }
  });
}

test('a finished job notifies every target once, signed, with the exact headers and body, verified by the documented receiver', async () => {
  const { client } = env();
  const taskPath = '/hooks/task-target';
  const jobPath = '/hooks/job-target';
  const job = await finishedJob(client, { taskUrl: receiver.url(taskPath), jobUrl: receiver.url(jobPath) }, 'e2e-webhook-signed');

  const [toTask] = await receiver.waitFor(taskPath, 1, 15_000);
  const [toJob] = await receiver.waitFor(jobPath, 1, 15_000);
  for (const request of [toTask!, toJob!]) {
    expect(request.method).toBe('POST');
    expect(request.status).toBe(204); // the documented receiver verified the signature and handled it
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['x-service-event']).toBe('job.finished');
    expect(request.headers['x-service-attempt']).toBe('1');
    expect(request.headers['x-service-delivery']).toMatch(/^[0-9a-f]{32}$/);
    expect(documented.verifySignature(secret, request.body, request.headers['x-service-signature'] as string)).toBe(true);
    expect(documented.verifySignature(`${secret}x`, request.body, request.headers['x-service-signature'] as string)).toBe(false);
    expect(documented.verifySignature(secret, Buffer.concat([request.body, Buffer.from(' ')]), request.headers['x-service-signature'] as string)).toBe(false);
  }
  expect(toTask!.headers['x-service-delivery']).not.toBe(toJob!.headers['x-service-delivery']);

  const body = JSON.parse(toJob!.body.toString('utf8')) as Record<string, unknown>;
  const exported = taskOf(job, 'export-my-file').result!;
  expect(body).toEqual({
    event: 'job.finished',
    id: job.id,
    status: 'finished',
    tasks: {
      'import-my-file': { operation: 'import/upload', status: 'finished', result: null },
      // With an export/url task the convert's own result is not pinned here (download_url or null).
      'convert-my-file': expect.objectContaining({ operation: 'convert', status: 'finished' }),
      'export-my-file': { operation: 'export/url', status: 'finished', result: expect.objectContaining({ url: exported.url, filename: exported.filename }) },
      notify: { operation: 'export/webhook', status: 'finished', result: null },
    },
  });
  expect(toTask!.body.equals(toJob!.body)).toBe(true);
  expect(handled.filter((entry) => entry.event['id'] === job.id).map((entry) => entry.kind)).toEqual(['job.finished', 'job.finished']);

  // Exactly one delivery per target, and the log says so.
  await sleep(SCHEDULE_MS[1]! + LATE_TOLERANCE_MS);
  expect(receiver.at(taskPath)).toHaveLength(1);
  expect(receiver.at(jobPath)).toHaveLength(1);
  const log = await deliveriesOf(client, job.id);
  expect(log.map(({ url, state, attempts }) => ({ url, state, codes: attempts.map((attempt) => attempt.statusCode) })).sort((a, b) => a.url.localeCompare(b.url))).toEqual([
    { url: receiver.url(jobPath), state: 'delivered', codes: [204] },
    { url: receiver.url(taskPath), state: 'delivered', codes: [204] },
  ]);
});

test('a failed job sends job.failed with the job error', async () => {
  const { client } = env();
  const hook = '/hooks/failed';
  const job = await client.createJob({
    tag: 'e2e-webhook-failed',
    webhook_url: receiver.url(hook),
    tasks: {
      fetch: { operation: 'import/url', url: receiver.url('/files/missing.png') },
      convert: { operation: 'convert', input: 'fetch', input_format: 'png', output_format: 'jpg' },
      out: { operation: 'export/url', input: ['convert'] },
    },
  });
  await client.completeUpload(job.id);
  const failed = await waitForJob(client, job.id, (current) => current.status === 'failed', 60_000, { waitingFor: 'failed' });

  const [request] = await receiver.waitFor(hook, 1, 15_000);
  expect(request!.headers['x-service-event']).toBe('job.failed');
  expect(request!.status).toBe(204);
  const body = JSON.parse(request!.body.toString('utf8')) as Record<string, unknown>;
  expect(body).toMatchObject({ event: 'job.failed', id: job.id, status: 'failed', error: failed.error });
  expect(failed.error).not.toBe('');
  expect(body['tasks']).toMatchObject({ fetch: { operation: 'import/url', status: 'failed' }, convert: { status: 'cancelled' } });
});

test('failed attempts retry on the schedule with the same delivery id; redirects are not followed; 410 stops; 5 attempts at most', async () => {
  const { client } = env();
  const retried = '/hooks/retried';
  const gone = '/hooks/gone';
  receiver.script(retried, [{ status: 500 }, { status: 302, headers: { Location: receiver.url('/hooks/elsewhere') } }, { status: 404 }]);
  receiver.script(gone, [{ status: 410 }]);
  const job = await finishedJob(client, { taskUrl: receiver.url(gone), jobUrl: receiver.url(retried) }, 'e2e-webhook-retries');

  const attempts = await receiver.waitFor(retried, 4, 30_000);
  expect(attempts.map((request) => request.headers['x-service-attempt'])).toEqual(['1', '2', '3', '4']);
  expect(new Set(attempts.map((request) => request.headers['x-service-delivery'])).size).toBe(1);
  for (const request of attempts) expect(documented.verifySignature(secret, request.body, request.headers['x-service-signature'] as string)).toBe(true);
  expectOnSchedule(attempts, SCHEDULE_MS.slice(1, 4));
  expect(receiver.at('/hooks/elsewhere')).toHaveLength(0);

  const delivered = await waitForDelivery(client, job.id, receiver.url(retried), 'delivered', 10_000);
  expect(delivered.attempts.map((attempt) => [attempt.attempt, attempt.statusCode])).toEqual([
    [1, 500],
    [2, 302],
    [3, 404],
    [4, 204],
  ]);
  expect(delivered.attempts[1]!.error).toMatch(/redirect/);
  expect(delivered.attempts[3]!.error).toBeNull();

  const stopped = await waitForDelivery(client, job.id, receiver.url(gone), 'gone', 10_000);
  expect(stopped.attempts.map((attempt) => attempt.statusCode)).toEqual([410]);
  expect(receiver.at(gone)).toHaveLength(1);

  // A receiver that never acknowledges gets exactly the schedule's 5 attempts.
  const never = '/hooks/never';
  receiver.script(
    never,
    Array.from({ length: 8 }, () => ({ status: 503 })),
  );
  const second = await finishedJob(client, { jobUrl: receiver.url(never) }, 'e2e-webhook-exhausted');
  const exhausted = await waitForDelivery(client, second.id, receiver.url(never), 'failed', 30_000);
  expect(exhausted.attempts.map((attempt) => attempt.attempt)).toEqual([1, 2, 3, 4, 5]);
  expectOnSchedule(receiver.at(never), SCHEDULE_MS.slice(1));
  await sleep(SCHEDULE_MS[4]! + LATE_TOLERANCE_MS);
  expect(receiver.at(never)).toHaveLength(5);

  // It ends as a dead letter with a clear error: in the admin CLI and counted on the dispatcher's /metrics.
  const deliveryId = receiver.at(never)[0]!.headers['x-service-delivery'] as string;
  const letters = await adminJson<Array<Record<string, unknown>>>(env().platform.env, ['dead-letters', 'list', '--source', DISPATCHER]);
  expect(letters.filter((letter) => letter['deliveryId'] === deliveryId)).toEqual([
    expect.objectContaining({
      id: `webhook.${deliveryId}`,
      source: DISPATCHER,
      kind: 'webhook.delivery',
      jobId: second.id,
      attempts: 5,
      error: 'gave up after 5 attempts; the last one got HTTP 503',
    }),
  ]);
  const dispatcher = env().platform.services.find((service) => service.name === DISPATCHER)!;
  const metrics = await (await fetch(`${dispatcher.url}/metrics`)).text();
  expect(metrics).toMatch(/^transmute_dead_letters_total\{[^}]*kind="webhook\.delivery"[^}]*\} [1-9]/m);
});

test('Retry-After on 429/503 is honoured within the schedule, and a receiver slower than the time-out is retried', async () => {
  const { client } = env();
  const throttled = '/hooks/throttled';
  const slow = '/hooks/slow';
  // Retry-After 3 s after attempt 1: later than the schedule's 1 s, within its longest step (4 s).
  receiver.script(throttled, [{ status: 429, headers: { 'Retry-After': '3' } }]);
  receiver.script(slow, [{ status: 200, hangMs: TIMEOUT_MS + 1_500 }]);
  const job = await finishedJob(client, { taskUrl: receiver.url(throttled), jobUrl: receiver.url(slow) }, 'e2e-webhook-throttled');

  const throttledAttempts = await receiver.waitFor(throttled, 2, 20_000);
  expectOnSchedule(throttledAttempts, [3_000]);

  const timedOut = await waitForDelivery(client, job.id, receiver.url(slow), 'delivered', 20_000);
  expect(timedOut.attempts).toHaveLength(2);
  expect(timedOut.attempts[0]).toMatchObject({ attempt: 1, statusCode: null, error: expect.stringMatching(/no answer within 1500 ms/) });
  expect(timedOut.attempts[0]!.durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
  expect(timedOut.attempts[0]!.durationMs).toBeLessThan(TIMEOUT_MS + 1_000);
  expect(timedOut.attempts[1]).toMatchObject({ attempt: 2, statusCode: 204 });
});

test('a dispatcher SIGKILLed mid-schedule resumes it after restart, and never repeats an acknowledged delivery', async () => {
  const { client, platform } = env();
  const path = '/hooks/durable';
  // Attempt 1 gets a 503 with Retry-After 4 s: its retry is due 4 s later (the schedule's longest step), time to kill.
  receiver.script(path, [{ status: 503, headers: { 'Retry-After': '4' } }]);
  const job = await finishedJob(client, { jobUrl: receiver.url(path) }, 'e2e-webhook-durable');

  const [first] = await receiver.waitFor(path, 1, 15_000);
  // Kill only once attempt 1 is recorded (and its message handed back with the delay).
  const deadline = Date.now() + 3_000;
  while ((await deliveriesOf(client, job.id))[0]?.attempts.length !== 1) {
    if (Date.now() > deadline) throw new Error('attempt 1 was not recorded within 3 s');
    await sleep(50);
  }
  const dispatcher = platform.services.find((service) => service.name === DISPATCHER)!;
  platform.killService(DISPATCHER, 'SIGKILL');
  while (dispatcher.running) await sleep(20);
  const killedAt = Date.now();

  // Nothing is attempted while no dispatcher runs, well past the retry's due time.
  await sleep(Math.max(0, first!.at + 4_000 + 1_500 - Date.now()));
  expect(receiver.at(path)).toHaveLength(1);

  await platform.startService(DISPATCHER);
  const [, second] = await receiver.waitFor(path, 2, 20_000);
  expect(second!.at).toBeGreaterThan(killedAt);
  expect(second!.headers['x-service-attempt']).toBe('2');
  expect(second!.headers['x-service-delivery']).toBe(first!.headers['x-service-delivery']);
  expect(documented.verifySignature(secret, second!.body, second!.headers['x-service-signature'] as string)).toBe(true);
  expect(second!.body.equals(first!.body)).toBe(true);
  await waitForDelivery(client, job.id, receiver.url(path), 'delivered', 10_000);

  // Acknowledged: neither another kill nor the rest of the schedule sends it again.
  platform.killService(DISPATCHER, 'SIGKILL');
  while (dispatcher.running) await sleep(20);
  await platform.startService(DISPATCHER);
  await sleep(SCHEDULE_MS.reduce((sum, delay) => sum + delay, 0) + 1_000);
  expect(receiver.at(path)).toHaveLength(2);
  const log = await deliveriesOf(client, job.id);
  expect(log).toHaveLength(1);
  expect(log[0]!.attempts.map((attempt) => attempt.statusCode)).toEqual([503, 204]);
});

test('after a rotation, the retries already scheduled are signed with the new secret', async () => {
  const { client, platform } = env();
  const path = '/hooks/rotation';
  // Four 503s with Retry-After 4 s (the longest step), then a 204: attempts 4 s apart, time to rotate in between.
  receiver.script(path, [...Array.from({ length: 4 }, () => ({ status: 503, headers: { 'Retry-After': '4' } })), { status: 204 }]);
  const before = await signingSecret(platform.env, 'dev');
  const job = await finishedJob(client, { jobUrl: receiver.url(path) }, 'e2e-webhook-rotation');
  await receiver.waitFor(path, 1, 15_000);
  const after = await signingSecret(platform.env, 'dev', 'rotate');
  const rotatedAt = Date.now();
  expect(after).not.toBe(before);
  expect(await signingSecret(platform.env, 'dev')).toBe(after);

  const attempts = await receiver.waitFor(path, 5, 40_000);
  const signedWith = attempts.map((request) => {
    const signature = request.headers['x-service-signature'] as string;
    if (documented.verifySignature(before, request.body, signature)) return 'old';
    if (documented.verifySignature(after, request.body, signature)) return 'new';
    return 'neither';
  });
  expect(signedWith[0]).toBe('old');
  // Every attempt made after the rotation finished uses the new secret; none goes back to the old one.
  attempts.forEach((request, index) => {
    if (request.at > rotatedAt + 200) expect(signedWith[index]).toBe('new');
  });
  expect(signedWith[signedWith.length - 1]).toBe('new');
  expect(signedWith).not.toContain('neither');
  await waitForDelivery(client, job.id, receiver.url(path), 'delivered', 10_000);
});

test('a delivery that cannot be attempted for too long (accounts module away) ends as a failed delivery and a dead letter', async () => {
  const { client, platform } = env();
  const stranded = '/hooks/stranded';
  receiver.script(stranded, [{ status: 503 }]);
  const job = await finishedJob(client, { jobUrl: receiver.url(stranded) }, 'e2e-webhook-stranded');
  const [first] = await receiver.waitFor(stranded, 1, 15_000);
  const deliveryId = first!.headers['x-service-delivery'] as string;
  // The gateway holds the accounts module: without it no signing secret, so no attempt can be made.
  await platform.stopService('gateway');
  try {
    await sleep(GIVE_UP_MS + 5_000 + LATE_TOLERANCE_MS);
  } finally {
    await platform.startService('gateway');
  }
  const letters = await adminJson<Array<Record<string, unknown>>>(platform.env, ['dead-letters', 'list', '--source', DISPATCHER]);
  expect(letters.filter((letter) => letter['deliveryId'] === deliveryId)).toEqual([
    expect.objectContaining({ jobId: job.id, attempts: 1, error: expect.stringMatching(/^no attempt could be made for \d+ s \(the limit is 8 s\): /) }),
  ]);
  const failed = await waitForDelivery(client, job.id, receiver.url(stranded), 'failed', 10_000);
  expect(failed.attempts.map((attempt) => attempt.statusCode)).toEqual([503]);
  // Never sent again.
  await sleep(SCHEDULE_MS[1]! + LATE_TOLERANCE_MS);
  expect(receiver.at(stranded)).toHaveLength(1);
});
