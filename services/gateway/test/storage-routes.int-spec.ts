import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { DownloadTokens, FsStorage, STORAGE, storageKey } from '@transmute/storage';
import { BAD_SIGNATURE_MESSAGE } from '../src/storage-routes/storage-signature';
import { type GatewayForTest, startGatewayForTest } from './gateway-for-test';

/*
 * Boots the gateway in-process against a real NATS (and nothing else: no
 * orchestrator answers), then drives it over HTTP like a client would.
 */

const API_KEY = `tm_dev_${randomBytes(16).toString('hex')}`;
const DOWNLOAD_TOKEN_KEY = randomBytes(32).toString('hex');
const MAX_JSON_BODY_BYTES = 1024 * 1024;
const LARGE_UPLOAD_BYTES = 20 * 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;

interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** Sends `body` chunk by chunk (chunked transfer encoding): nothing is assembled in memory on either side. */
function putStream(url: string, headers: Record<string, string>, body: Readable): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method: 'PUT', headers }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: Buffer.concat(chunks) }));
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
    body.pipe(outgoing);
  });
}

/** A deterministic pseudo-random body of `size` bytes, produced lazily, and its SHA-256 once fully read. */
function generatedBody(size: number, seed: string): { stream: Readable; sha256: Promise<string> } {
  const hash = createHash('sha256');
  let sent = 0;
  let block = createHash('sha256').update(seed).digest();
  let resolveDigest: (digest: string) => void = () => undefined;
  const sha256 = new Promise<string>((resolve) => (resolveDigest = resolve));
  const stream = new Readable({
    read() {
      if (sent >= size) {
        resolveDigest(hash.digest('hex'));
        this.push(null);
        return;
      }
      const parts: Buffer[] = [];
      for (let length = 0; length < CHUNK_BYTES; length += block.length) {
        block = createHash('sha256').update(block).digest();
        parts.push(block);
      }
      const chunk = Buffer.concat(parts).subarray(0, Math.min(CHUNK_BYTES, size - sent));
      sent += chunk.length;
      hash.update(chunk);
      this.push(chunk);
    },
  });
  return { stream, sha256 };
}

const sha256Of = (bytes: Buffer | ArrayBuffer) =>
  createHash('sha256')
    .update(Buffer.from(bytes as ArrayBuffer))
    .digest('hex');

describe('gateway over HTTP (real NATS, no orchestrator)', () => {
  let gateway: GatewayForTest;
  let storageRoot: string;
  let baseUrl: string;
  let storage: FsStorage;

  beforeAll(async () => {
    gateway = await startGatewayForTest({
      // The accounts module keeps accounts and keys there (the dev key is seeded at start).
      database: 'gateway_storage_it',
      env: {
        TRANSMUTE_DOWNLOAD_TOKEN_KEY: DOWNLOAD_TOKEN_KEY,
        TRANSMUTE_DEV_API_KEY: API_KEY,
        TRANSMUTE_RPC_TIMEOUT_MS: '1000',
        // Far below the storage uploads below: proves they never meet the JSON parser.
        TRANSMUTE_MAX_JSON_BODY_BYTES: String(MAX_JSON_BODY_BYTES),
      },
    });
    ({ baseUrl, storageRoot } = gateway);
    storage = gateway.app.get<FsStorage>(STORAGE);
  });

  afterAll(() => gateway?.stop());

  async function upload(key: string, contentType: string, size: number): Promise<{ answer: HttpAnswer; sha256: string }> {
    const target = await storage.presignUpload(key, { contentType, expiresInSeconds: 60 });
    const body = generatedBody(size, key);
    const answer = await putStream(target.url, target.headers, body.stream);
    return { answer, sha256: await body.sha256 };
  }

  it('becomes ready once NATS is connected and the job event log is followed', async () => {
    // Readiness comes a moment after listening: the event log's follower starts in the background.
    const deadline = Date.now() + 10_000;
    let status = 0;
    while ((status = (await fetch(`${baseUrl}/readyz`)).status) !== 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(200);
  });

  describe('signed storage routes', () => {
    it.each([
      ['application/octet-stream', 'photo.bin'],
      // A JSON Content-Type must not wake a body parser: 20 MB of non-JSON bytes, above the JSON limit.
      ['application/json', 'data.json'],
    ])('a signed PUT streams a 20 MB %s body to storage, and a signed GET streams it back', async (contentType, name) => {
      const key = storageKey('jobs', randomBytes(16).toString('hex'), 'in', name);
      const { answer, sha256 } = await upload(key, contentType, LARGE_UPLOAD_BYTES);

      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body.toString())).toEqual({});
      expect(await storage.stat(key)).toEqual({ size: LARGE_UPLOAD_BYTES });
      expect(sha256Of(await readFile(join(storageRoot, key)))).toBe(sha256);

      const download = await fetch(await storage.presignDownload(key, { filename: 'my photo "1".bin', expiresInSeconds: 60 }));
      expect(download.status).toBe(200);
      expect(download.headers.get('content-type')).toBe('application/octet-stream');
      expect(download.headers.get('content-disposition')).toBe('attachment; filename="my photo \\"1\\".bin"');
      expect(sha256Of(await download.arrayBuffer())).toBe(sha256);
    });

    it('refuses an upload whose Content-Type differs from the signed one', async () => {
      const target = await storage.presignUpload(storageKey('jobs', 'ct', 'in'), { contentType: 'application/octet-stream', expiresInSeconds: 60 });
      const response = await fetch(target.url, { method: 'PUT', headers: { 'Content-Type': 'image/png' }, body: 'bytes' });

      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ status: 'error', message: BAD_SIGNATURE_MESSAGE });
      expect(await storage.stat(storageKey('jobs', 'ct', 'in'))).toBeNull();
    });

    it('refuses an expired upload link', async () => {
      const target = await storage.presignUpload(storageKey('jobs', 'late', 'in'), { contentType: 'application/octet-stream', expiresInSeconds: -5 });
      const response = await fetch(target.url, { method: 'PUT', headers: target.headers, body: 'bytes' });

      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ status: 'error', message: 'upload link expired' });
    });

    it('refuses a download link with a changed filename', async () => {
      const url = new URL(await storage.presignDownload('jobs/x/out.png', { filename: 'out.png', expiresInSeconds: 60 }));
      url.searchParams.set('filename', 'other.exe');
      const response = await fetch(url);

      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ status: 'error', message: BAD_SIGNATURE_MESSAGE });
    });
  });

  describe('GET /v1/download/:token', () => {
    const tokens = new DownloadTokens(DOWNLOAD_TOKEN_KEY);
    const mint = (key: string, filename: string) => tokens.mint({ key, filename, accountId: 'dev', expiresAtUnix: BigInt(Math.floor(Date.now() / 1000) + 600) });

    it('redirects a valid token to a working signed GET', async () => {
      const key = storageKey('jobs', randomBytes(16).toString('hex'), 'out', 'result.png');
      const { answer, sha256 } = await upload(key, 'application/octet-stream', 256 * 1024);
      expect(answer.status).toBe(200);

      const redirect = await fetch(`${baseUrl}/v1/download/${mint(key, 'result.png')}`, { redirect: 'manual' });
      expect(redirect.status).toBe(302);
      const location = redirect.headers.get('location') ?? '';
      expect(location.startsWith(`${baseUrl}/storage/${key}?`)).toBe(true);

      const file = await fetch(location);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-disposition')).toBe('attachment; filename="result.png"');
      expect(sha256Of(await file.arrayBuffer())).toBe(sha256);
    });

    it.each([
      ['a forged token', () => `${mint('jobs/a/out.png', 'out.png').slice(0, -2)}xx`],
      ['garbage', () => 'not-a-token'],
      ['a valid token for a file that is gone', () => mint('jobs/gone/out.png', 'out.png')],
    ])('answers 404 for %s', async (_name, token) => {
      const response = await fetch(`${baseUrl}/v1/download/${token()}`, { redirect: 'manual' });

      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ status: 'error', message: 'no such file' });
    });
  });

  describe('errors in the Error shape', () => {
    const jobsUrl = () => `${baseUrl}/v1/process/jobs`;
    const validBody = JSON.stringify({
      tasks: {
        'upload-my-file': { operation: 'import/upload', filename: 'photo.png' },
        'convert-my-file': { operation: 'convert', input: 'upload-my-file', output_format: 'jpg' },
      },
    });

    it.each([
      ['no API key', {}],
      ['a wrong bearer key', { Authorization: 'Bearer wrong' }],
      ['a wrong X-API-Key', { 'X-API-Key': `${API_KEY}x` }],
    ])('401 with %s', async (_name, headers) => {
      const response = await fetch(`${jobsUrl()}/${'a'.repeat(32)}`, { headers });

      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ status: 'error', message: 'missing or invalid API key' });
    });

    it('404 on an unknown route', async () => {
      const response = await fetch(`${baseUrl}/v1/nothing-here?signature=secret`);

      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ status: 'error', message: 'no route GET /v1/nothing-here' });
    });

    it('404 on a job id that cannot exist, without asking anyone', async () => {
      const response = await fetch(`${jobsUrl()}/NOT-AN-ID`, { headers: { 'X-API-Key': API_KEY } });

      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ status: 'error', message: 'no such job' });
    });

    it.each([
      ['malformed JSON', 'application/json', '{"tasks": {'],
      ['a body that is not sent as JSON', 'text/plain', validBody],
    ])('400 on %s', async (_name, contentType, body) => {
      const response = await fetch(jobsUrl(), { method: 'POST', headers: { Authorization: `Bearer ${API_KEY}`, 'Content-Type': contentType }, body });

      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ status: 'error', message: expect.stringMatching(/JSON/) });
    });

    it('413 on a JSON body above the limit', async () => {
      const body = JSON.stringify({ tasks: { in: { operation: 'import/base64', file: 'A'.repeat(MAX_JSON_BODY_BYTES) } } });
      const response = await fetch(jobsUrl(), { method: 'POST', headers: { 'X-API-Key': API_KEY, 'Content-Type': 'application/json' }, body });

      expect(response.status).toBe(413);
      expect(await response.json()).toEqual({ status: 'error', message: `request body is larger than ${MAX_JSON_BODY_BYTES} bytes` });
    });

    it('422 naming the task and field of a wrongly typed field', async () => {
      const body = JSON.stringify({ tasks: { c: { operation: 'convert', input: 7 } } });
      const response = await fetch(jobsUrl(), { method: 'POST', headers: { 'X-API-Key': API_KEY, 'Content-Type': 'application/json' }, body });

      expect(response.status).toBe(422);
      expect(await response.json()).toEqual({ status: 'error', message: 'task c: input must be a task name or an array of task names' });
    });

    it('503 when no orchestrator answers jobs.create', async () => {
      const response = await fetch(jobsUrl(), { method: 'POST', headers: { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' }, body: validBody });

      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ status: 'error', message: 'the job service is unavailable; try again shortly' });
    });
  });

  // Sandbox jobs are validated by the orchestrator like real ones (e2e covers the 200); here none runs.
  it('takes a sandbox job without an API key to validation: 503 without an orchestrator, not 401', async () => {
    const body = JSON.stringify({
      sandbox: true,
      tasks: {
        in: { operation: 'import/url', url: 'https://example.com/a.png' },
        c: { operation: 'convert', input: 'in', output_format: 'jpg' },
        out: { operation: 'export/url', input: ['c'] },
      },
    });
    const response = await fetch(`${baseUrl}/v1/process/jobs`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });

    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: 'error', message: 'the job service is unavailable; try again shortly' });
  });
});
