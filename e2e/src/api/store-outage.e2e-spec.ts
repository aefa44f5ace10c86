/**
 * 503 while a store is down (spec, Errors: "job store or import store
 * unavailable"). The live job store and the import store are JetStream KV
 * buckets on the NATS server; the test stops that real server, asks, and
 * starts it again: get-job and POST /v1/imports answer 503 in the Error shape
 * meanwhile, and 200 again once it is back.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { uploadConvertExport } from '../support';
import { platformFixture } from '../support/platform-fixture';
import { expectError } from './helpers';

// A short wait for an answer that will not come, so each refusal takes seconds, not the default five.
const env = platformFixture({ name: 'store-outage', extraEnv: { TRANSMUTE_RPC_TIMEOUT_MS: '2000' } });

async function untilAnswered(ask: () => Promise<number>, status: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 0;
  while ((last = await ask().catch(() => 0)) !== status) {
    if (Date.now() > deadline) throw new Error(`still ${last} after ${timeoutMs} ms, expected ${status}`);
    await sleep(500);
  }
}

test('get-job and POST /v1/imports answer 503 while the stores are down, and recover when they are back', async () => {
  const { client, infra } = env();
  const job = await client.createJob(uploadConvertExport('png', 'jpg', 'e2e-outage'));
  expect((await client.request('GET', `/v1/process/jobs/${job.id}`)).status).toBe(200);
  expect((await client.request('POST', '/v1/imports')).status).toBe(200);

  await infra.down('nats');
  try {
    expectError(await client.request('GET', `/v1/process/jobs/${job.id}`), 503);
    expectError(await client.request('POST', '/v1/imports'), 503);
  } finally {
    await infra.up('nats');
  }
  await untilAnswered(async () => (await client.request('GET', `/v1/process/jobs/${job.id}`)).status, 200, 120_000);
  await untilAnswered(async () => (await client.request('POST', '/v1/imports')).status, 200, 120_000);
});
