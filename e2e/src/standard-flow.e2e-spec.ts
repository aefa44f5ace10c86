/**
 * The spec's "Standard flow for a local file", step by step, against the whole
 * platform: create a job (import/upload -> convert -> export/url), PUT the
 * bytes to the signed form, complete-upload, poll until finished, download
 * through the 302. Plus the contract details around it: the job's exact
 * fields, the convert task's download_url, the signed upload refusing another
 * Content-Type, and complete-upload before the bytes and twice (409 both).
 */
import { decodeImage, gradientPng, type HttpReply, type Job, jobShapeProblems, type Sample, taskOf, uploadConvertExport, waitForFinished } from './support';
import { platformFixture } from './support/platform-fixture';

const env = platformFixture({ name: 'standard-flow' });

const FINISH_TIMEOUT_MS = 60_000;
const STARTED_STATUSES = ['queued', 'processing', 'converting', 'finished'];
const IMPORT = 'import-my-file';
const CONVERT = 'convert-my-file';
const EXPORT = 'export-my-file';

let sample: Sample;
beforeAll(async () => {
  sample = await gradientPng(321, 203);
});

/** The spec's Error shape, exactly: `{ status: 'error', message }` with a message. */
function expectErrorReply(reply: HttpReply, httpStatus: number): void {
  expect({ status: reply.status, body: reply.json }).toEqual({
    status: httpStatus,
    body: { status: 'error', message: expect.any(String) },
  });
  expect((reply.json as { message: string }).message.length).toBeGreaterThan(0);
}

function uploadFormOf(job: Job) {
  const form = taskOf(job, IMPORT).result?.form;
  if (!form) throw new Error(`the ${IMPORT} task has no result.form: ${JSON.stringify(taskOf(job, IMPORT))}`);
  return form;
}

/** form.headers with Content-Type (whatever its case) replaced. */
function withContentType(headers: Record<string, string>, contentType: string): Record<string, string> {
  const others = Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'content-type');
  return { ...Object.fromEntries(others), 'Content-Type': contentType };
}

describe('standard flow for a local file', () => {
  test.each([
    { output: 'jpg', sharpFormat: 'jpeg' },
    { output: 'webp', sharpFormat: 'webp' },
  ])('png -> $output: create, PUT to the form, complete-upload, poll, download through the 302', async ({ output, sharpFormat }) => {
    const { client, platform } = env();

    // 1. POST /v1/process/jobs: 201, an upload form on the import/upload task.
    const tag = `e2e-standard-${output}`;
    const created = await client.createJob(uploadConvertExport('png', output, tag));
    expect(jobShapeProblems(created)).toEqual([]);
    expect(created).toMatchObject({ tag, status: 'waiting_upload', startedAt: null, endedAt: null, result: null, error: '' });
    expect(created.tasks.map((task) => task.name).sort()).toEqual([CONVERT, EXPORT, IMPORT].sort());
    expect(taskOf(created, IMPORT)).toMatchObject({ operation: 'import/upload', status: 'waiting_upload', dependsOn: [] });
    expect(taskOf(created, CONVERT)).toMatchObject({ operation: 'convert', status: 'waiting_input', dependsOn: [IMPORT] });
    expect(taskOf(created, EXPORT)).toMatchObject({ operation: 'export/url', status: 'waiting_input', dependsOn: [CONVERT] });
    const form = uploadFormOf(created);
    expect(form).toEqual({
      url: expect.stringMatching(/^https?:\/\//),
      method: 'PUT',
      parameters: expect.any(Object),
      headers: expect.objectContaining({ 'Content-Type': expect.any(String) }),
      expiresAt: expect.any(String),
    });
    expect(Date.parse(form.expiresAt)).toBeGreaterThan(Date.now());

    // 2. The raw bytes to the form URL, with exactly the form's headers.
    const put = await client.upload(form, sample.bytes);
    expect({ status: put.status, body: put.text.slice(0, 300) }).toEqual({ status: 200, body: expect.any(String) });

    // 3. complete-upload starts the conversion.
    const completed = await client.completeUploadReply(created.id);
    expect({ status: completed.status, body: completed.json }).toEqual({ status: 200, body: expect.any(Object) });
    const started = completed.json as Job;
    expect(jobShapeProblems(started)).toEqual([]);
    expect(started.id).toBe(created.id);
    expect(STARTED_STATUSES).toContain(started.status);
    expect(started.startedAt).not.toBeNull();

    // 4. Poll until finished.
    const finished = await waitForFinished(client, created.id, FINISH_TIMEOUT_MS);
    expect(jobShapeProblems(finished)).toEqual([]);
    expect(finished).toMatchObject({ id: created.id, tag, status: 'finished', error: '', createdAt: created.createdAt });
    expect(finished.result).not.toBeNull();
    expect(finished.startedAt).not.toBeNull();
    expect(finished.endedAt).not.toBeNull();
    expect(Date.parse(finished.startedAt as string)).toBeGreaterThanOrEqual(Date.parse(finished.createdAt));
    expect(Date.parse(finished.endedAt as string)).toBeGreaterThanOrEqual(Date.parse(finished.startedAt as string));
    for (const task of finished.tasks) expect({ task: task.name, status: task.status }).toEqual({ task: task.name, status: 'finished' });

    // 5. Download from the export task's result.url: 302 to storage, then the file.
    const exported = taskOf(finished, EXPORT).result;
    expect(exported).toEqual(expect.objectContaining({ url: expect.stringMatching(new RegExp(`^${platform.baseUrl}/v1/download/[^/?#]+$`)), filename: expect.any(String) }));
    expect(exported?.filename).toMatch(new RegExp(`\\.${output}$`));
    const download = await client.download(exported?.url as string);
    expect(download.redirect.status).toBe(302);
    expect(download.location).toMatch(/^https?:\/\//);
    expect(download.file.status).toBe(200);
    expect(await decodeImage(download.file.bytes)).toEqual({ format: sharpFormat, width: sample.width, height: sample.height });

    // The convert task's download_url delivers the same file.
    const convertResult = taskOf(finished, CONVERT).result;
    expect(convertResult).toEqual(expect.objectContaining({ download_url: expect.stringMatching(/^https?:\/\//) }));
    const direct = await client.download(convertResult?.download_url as string);
    expect(direct.redirect.status).toBe(302);
    expect(direct.file.bytes.equals(download.file.bytes)).toBe(true);
  });

  test('the signed upload refuses another Content-Type than the form gives: 403 in the Error shape, nothing stored', async () => {
    const { client } = env();
    const job = await client.createJob(uploadConvertExport('png', 'jpg', 'e2e-wrong-content-type'));
    const form = uploadFormOf(job);
    const signedType = Object.entries(form.headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
    const otherType = signedType === 'text/plain' ? 'image/png' : 'text/plain';

    const put = await client.upload(form, sample.bytes, withContentType(form.headers, otherType));
    expectErrorReply(put, 403);

    // The refused bytes did not land: the job cannot start.
    expectErrorReply(await client.completeUploadReply(job.id), 409);
    expect((await client.getJob(job.id)).status).toBe('waiting_upload');
  });

  test('complete-upload before the bytes: 409 in the Error shape; after them 200; a second call 409 and changes nothing', async () => {
    const { client } = env();
    const job = await client.createJob(uploadConvertExport('png', 'jpg', 'e2e-complete-twice'));

    // Before the bytes: 409 naming the task still waiting, and the job stays as it was.
    const early = await client.completeUploadReply(job.id);
    expectErrorReply(early, 409);
    expect((early.json as { message: string }).message).toContain(IMPORT);
    const untouched = await client.getJob(job.id);
    expect(untouched).toMatchObject({ status: 'waiting_upload', startedAt: null });
    expect(taskOf(untouched, IMPORT).status).toBe('waiting_upload');

    expect((await client.upload(uploadFormOf(job), sample.bytes)).status).toBe(200);
    const first = await client.completeUpload(job.id);
    expect(STARTED_STATUSES).toContain(first.status);

    // At once again: 409, still started, not reset or started over.
    expectErrorReply(await client.completeUploadReply(job.id), 409);
    const again = await client.getJob(job.id);
    expect(jobShapeProblems(again)).toEqual([]);
    expect(STARTED_STATUSES).toContain(again.status);
    expect(again.startedAt).toBe(first.startedAt);

    // Once finished: 409 again, and the job is exactly as it was.
    const finished = await waitForFinished(client, job.id, FINISH_TIMEOUT_MS);
    expectErrorReply(await client.completeUploadReply(job.id), 409);
    expect(await client.getJob(job.id)).toEqual(finished);
  });
});
