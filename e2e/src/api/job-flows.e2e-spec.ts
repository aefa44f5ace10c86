/**
 * Jobs that run, on the whole platform (issue 3): a job built around an
 * import (import_id), a convert -> convert chain, a job without export (the
 * convert's download_url), several import/convert/export sets mixing
 * import/upload, import/base64 and import/url, and a fetch-only job that
 * waits for complete-upload.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeImage, gradientPng, jobShapeProblems, type Sample, taskOf, waitForFinished } from '../support';
import { platformFixture } from '../support/platform-fixture';
import { expectError, expectJob } from './helpers';

// The import/url source is served from this machine, so private addresses must be allowed here.
const env = platformFixture({ name: 'job-flows', extraEnv: { TRANSMUTE_ALLOW_PRIVATE_NETWORKS: 'true' } });

const FINISH_TIMEOUT_MS = 90_000;
const JOBS = '/v1/process/jobs';

let sample: Sample;
let source: Server;
let sourceUrl: string;
beforeAll(async () => {
  sample = await gradientPng(123, 77);
  source = createServer((request, response) => {
    if (request.url !== '/files/source.png') return void response.writeHead(404).end();
    response.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': sample.bytes.length }).end(sample.bytes);
  });
  await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
  sourceUrl = `http://127.0.0.1:${(source.address() as AddressInfo).port}/files/source.png`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => source.close(() => resolve()));
});

/** Downloads through the API's link (302, then the bytes) and decodes the image. */
async function downloaded(link: string) {
  const { file } = await env().client.download(link);
  return decodeImage(file.bytes);
}

describe('jobs that run', () => {
  test('import_id: bytes sent to an import (proxy route), then a job around it with a top-level output_format', async () => {
    const { client } = env();
    const created = (await client.request('POST', '/v1/imports')).json as { id: string; upload: { token: string } };
    const put = await client.request('PUT', `/v1/imports/${created.id}/content?token=${created.upload.token}&filename=photo.png`, {
      auth: false,
      body: sample.bytes,
      headers: { 'Content-Type': 'application/octet-stream' },
    });
    expect(put.status).toBe(200);

    const job = expectJob(await client.request('POST', JOBS, { json: { import_id: created.id, output_format: 'webp', tag: 'by-import' } }), 201);
    expect(jobShapeProblems(job)).toEqual([]);
    expect(job).toMatchObject({ status: 'waiting_upload', tag: 'by-import' });
    expect(job.tasks.map((task) => [task.name, task.operation, task.dependsOn])).toEqual([
      ['import', 'import/upload', []],
      ['convert', 'convert', ['import']],
      ['export', 'export/url', ['convert']],
    ]);
    // Like every job, it starts with complete-upload.
    await client.completeUpload(job.id);
    const finished = await waitForFinished(client, job.id, FINISH_TIMEOUT_MS);
    const exported = taskOf(finished, 'export').result;
    expect(exported?.filename).toMatch(/\.webp$/);
    expect(await downloaded(exported!.url!)).toMatchObject({ format: 'webp', width: 123, height: 77 });
  });

  test("convert -> convert: the second reads the first one's output; without an export the convert result carries download_url", async () => {
    const { client } = env();
    const job = await client.createJob({
      tasks: {
        in: { operation: 'import/upload', filename: 'a.png' },
        first: { operation: 'convert', input: 'in', output_format: 'webp' },
        // A wrong input_format here is overridden by the upstream output_format.
        second: { operation: 'convert', input: 'first', input_format: 'gif', output_format: 'jpg' },
      },
    });
    expect((await client.upload(taskOf(job, 'in').result!.form!, sample.bytes)).status).toBe(200);
    await client.completeUpload(job.id);
    const finished = await waitForFinished(client, job.id, FINISH_TIMEOUT_MS);
    expect(finished.result).toEqual({ files: [{ task: 'second', url: taskOf(finished, 'second').result?.download_url, filename: expect.any(String) }] });
    expect(await downloaded(taskOf(finished, 'first').result!.download_url!)).toMatchObject({ format: 'webp' });
    expect(await downloaded(taskOf(finished, 'second').result!.download_url!)).toMatchObject({ format: 'jpeg', width: 123, height: 77 });
  });

  test('several sets in one job, mixing import/upload, import/base64 and import/url; finished once every convert is', async () => {
    const { client } = env();
    const job = await client.createJob({
      tasks: {
        up: { operation: 'import/upload', filename: 'up.png' },
        inline: { operation: 'import/base64', file: `data:image/png;base64,${sample.bytes.toString('base64')}`, filename: 'inline.png' },
        fetched: { operation: 'import/url', url: sourceUrl },
        'up-jpg': { operation: 'convert', input: 'up', output_format: 'jpg' },
        'inline-webp': { operation: 'convert', input: 'inline', output_format: 'webp' },
        'fetched-png': { operation: 'convert', input: 'fetched', output_format: 'jpg' },
        out: { operation: 'export/url', input: ['up-jpg', 'inline-webp', 'fetched-png'] },
      },
    });
    expect(taskOf(job, 'fetched').status).toBe('waiting');
    expect(taskOf(job, 'inline').status).toBe('waiting');
    expect((await client.upload(taskOf(job, 'up').result!.form!, sample.bytes)).status).toBe(200);
    await client.completeUpload(job.id);
    const finished = await waitForFinished(client, job.id, FINISH_TIMEOUT_MS);
    const files = taskOf(finished, 'out').result?.files as { url: string; filename: string }[];
    expect(files).toHaveLength(3);
    const formats = await Promise.all(files.map(async (file) => (await downloaded(file.url)).format));
    expect(formats.sort()).toEqual(['jpeg', 'jpeg', 'webp']);
  });

  test('a job that only fetches waits at waiting_upload until complete-upload, then runs', async () => {
    const { client } = env();
    const job = await client.createJob({
      tasks: { fetched: { operation: 'import/url', url: sourceUrl }, c: { operation: 'convert', input: 'fetched', output_format: 'webp' } },
    });
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const waiting = await client.getJob(job.id);
    expect(waiting).toMatchObject({ status: 'waiting_upload', startedAt: null });
    expect(taskOf(waiting, 'fetched').status).toBe('waiting');
    await client.completeUpload(job.id);
    const finished = await waitForFinished(client, job.id, FINISH_TIMEOUT_MS);
    expect(await downloaded(taskOf(finished, 'c').result!.download_url!)).toMatchObject({ format: 'webp', width: 123, height: 77 });
    expectError(await client.completeUploadReply(job.id), 409, 'already');
  });
});

/** Formats recognised by content (issue 18): no name, no input_format, the bytes decide. */
describe('files with no name', () => {
  const octets = { 'Content-Type': 'application/octet-stream' };

  /** POST /v1/imports, then the bytes to its content route without ?filename. */
  async function namelessImport(bytes: Uint8Array): Promise<string> {
    const { client } = env();
    const created = (await client.request('POST', '/v1/imports')).json as { id: string; upload: { token: string } };
    const put = await client.request('PUT', `/v1/imports/${created.id}/content?token=${created.upload.token}`, { auth: false, body: bytes, headers: octets });
    expect(put.status).toBe(200);
    return created.id;
  }

  test('import_id: PNG bytes with no name, then a job with only output_format jpg, finishes as a JPEG', async () => {
    const { client } = env();
    const importId = await namelessImport(sample.bytes);
    const job = expectJob(await client.request('POST', JOBS, { json: { import_id: importId, output_format: 'jpg' } }), 201);
    await client.completeUpload(job.id);
    const finished = await waitForFinished(client, job.id, FINISH_TIMEOUT_MS);
    const exported = taskOf(finished, 'export').result;
    expect(exported?.filename).toMatch(/\.jpg$/);
    expect(await downloaded(exported!.url!)).toMatchObject({ format: 'jpeg', width: 123, height: 77 });
  });

  test('import_id: text with no name is refused with 422, saying the content does not tell and what to give', async () => {
    const importId = await namelessImport(Buffer.from('name,size\nphoto,12\n'));
    expectError(await env().client.request('POST', JOBS, { json: { import_id: importId, output_format: 'pdf' } }), 422, 'cannot be recognised from its content', 'input_format');
  });

  test('import_id: an import whose bytes have not arrived is refused with 422', async () => {
    const created = (await env().client.request('POST', '/v1/imports')).json as { id: string };
    expectError(await env().client.request('POST', JOBS, { json: { import_id: created.id, output_format: 'jpg' } }), 422, 'has no content yet');
  });

  test('import/base64 without filename: recognised from the decoded bytes and converted', async () => {
    const { client } = env();
    const job = await client.createJob({
      tasks: {
        inline: { operation: 'import/base64', file: sample.bytes.toString('base64') },
        convert: { operation: 'convert', input: 'inline', output_format: 'webp' },
        export: { operation: 'export/url', input: ['convert'] },
      },
    });
    await client.completeUpload(job.id);
    const finished = await waitForFinished(client, job.id, FINISH_TIMEOUT_MS);
    expect(await downloaded(taskOf(finished, 'export').result!.url!)).toMatchObject({ format: 'webp', width: 123, height: 77 });
  });

  test('import/base64 of text without filename, read by a convert, is refused with 422', async () => {
    const reply = await env().client.request('POST', JOBS, {
      json: {
        tasks: {
          inline: { operation: 'import/base64', file: Buffer.from('# notes\n\nplain text').toString('base64') },
          convert: { operation: 'convert', input: 'inline', output_format: 'pdf' },
        },
      },
    });
    expectError(reply, 422, 'task inline', 'cannot be recognised from its content');
  });
});
