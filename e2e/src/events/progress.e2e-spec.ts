/**
 * Progress on the event stream (issue 26): a conversion that runs for tens
 * of seconds (a generated MP4 to WebM, VP9) shows `job.progress` events
 * between `converting` and `job.finished`, in 5 % steps; a client that drops
 * the stream half-way and comes back with Last-Event-ID gets exactly the
 * events an unbroken stream got after that id: none lost, none twice.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { type Job, taskOf, uploadConvertExport } from '../support';
import { platformFixture } from '../support/platform-fixture';
import { type SseEvent, type SseStream, openJobEvents } from './sse-client';

const run = promisify(execFile);
const env = platformFixture({ name: 'progress-events', families: ['video'] });

/** Seconds of 640x360 test pattern at 25 fps: VP9 at the default preset takes tens of seconds on the shared 2-core machine. */
const CLIP_SECONDS = 30;

async function testClip(): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'progress-clip-'));
  try {
    const file = join(dir, 'clip.mp4');
    await run('ffmpeg', [
      '-nostdin',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=640x360:rate=25:duration=${CLIP_SECONDS}`,
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      file,
    ]);
    return await readFile(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const jobOf = (event: SseEvent) => JSON.parse(event.data) as Job;
const progressOf = (event: SseEvent) => taskOf(jobOf(event), 'convert-my-file').progress;
const described = (events: SseEvent[]) => events.map((event) => `${event.id}:${event.event}:${jobOf(event).status}:${progressOf(event) ?? '-'}`).join(' ');

/** Reads events until `enough` says so or the stream ends. */
async function readUntil(stream: SseStream, enough: (events: SseEvent[]) => boolean, timeoutMs: number): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  while (!enough(events)) {
    const next = await stream.next(timeoutMs).catch((error: unknown) => {
      throw new Error(`${(error as Error).message}; received: ${described(events)}`);
    });
    events.push(next);
  }
  return events;
}

test('a long conversion pushes throttled progress before job.finished, and a resume with Last-Event-ID loses and repeats nothing', async () => {
  const { platform, client } = env();
  const clip = await testClip();
  const job = await client.createJob(uploadConvertExport('mp4', 'webm', 'e2e-progress'));
  const form = taskOf(job, 'import-my-file').result?.form;
  if (!form) throw new Error(`no upload form: ${JSON.stringify(job)}`);
  expect((await client.upload(form, clip)).status).toBe(200);

  // Both streams open on the same state, before anything runs.
  const unbroken = await openJobEvents(platform.baseUrl, platform.devApiKey, job.id);
  const dropping = await openJobEvents(platform.baseUrl, platform.devApiKey, job.id);
  const [first] = await readUntil(unbroken, (events) => events.length === 1, 10_000);
  const [firstAgain] = await readUntil(dropping, (events) => events.length === 1, 10_000);
  expect(firstAgain!.id).toBe(first!.id);
  await client.completeUpload(job.id);

  // The dropping client hangs up after its second progress event, stays away a while, and comes back.
  const beforeDrop = await readUntil(dropping, (events) => events.filter((event) => event.event === 'job.progress').length === 2, 240_000);
  dropping.close();
  const lastSeen = beforeDrop.at(-1)!;
  await sleep(3_000);
  const resumed = await openJobEvents(platform.baseUrl, platform.devApiKey, job.id, lastSeen.id);
  const afterResume = await resumed.rest(300_000);
  const all = await unbroken.rest(300_000);

  // Progress arrives between converting and the end, named job.progress, carrying the job with a rising figure.
  const progress = all.filter((event) => event.event === 'job.progress');
  expect(all.at(-1)!.event).toBe('job.finished');
  expect(progress.length).toBeGreaterThanOrEqual(3);
  for (const event of progress) {
    expect(jobOf(event).status).toBe('converting');
    expect(taskOf(jobOf(event), 'convert-my-file').status).toBe('processing');
  }
  // Throttled: each progress event is in a higher 5 % band than the one before it.
  const bands = progress.map((event) => Math.floor((progressOf(event) ?? -1) / 5));
  bands.forEach((band, index) => {
    if (index > 0) expect([described(progress), band]).toEqual([described(progress), Math.max(band, bands[index - 1]! + 1)]);
  });
  const ids = all.map((event) => Number(event.id));
  ids.forEach((id, index) => index > 0 && expect(id).toBeGreaterThan(ids[index - 1]!));

  // The dropped stream, then the resumed one: exactly the unbroken stream, event for event.
  const pieced = [...beforeDrop, ...afterResume];
  expect(described(pieced)).toBe(described(all));
  expect(pieced.map((event) => event.data)).toEqual(all.map((event) => event.data));
  // Something did happen while the client was away, so the resume had events to replay.
  expect(afterResume.length).toBeGreaterThan(1);
  expect(Number(afterResume[0]!.id)).toBeGreaterThan(Number(lastSeen.id));
}, 600_000);
