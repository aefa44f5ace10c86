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

  test('convert -> convert: the second reads the first one\'s output; without an export the convert result carries download_url', async () => {
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

