/**
 * No work is lost when a converter dies mid-task: the convert task's JetStream
 * message, never acknowledged, is redelivered once its ack wait runs out, and
 * the converter started again finishes the job.
 *
 * The converter's ack wait is cut to 3 s (TRANSMUTE_ACK_WAIT_MS) so the
 * redelivery comes quickly. The orchestrator's own safety net (the reconciler
 * dispatching a task again after TRANSMUTE_PROCESSING_DEADLINE_MS, 30 min by
 * default) is left alone, and its redispatch counter is checked to be zero:
 * the only way this job can finish within the test's time is redelivery.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { decodeImage, jobState, metricValue, noisePng, type Sample, taskOf, uploadConvertExport, waitForFinished, waitForJob } from './support';
import { platformFixture } from './support/platform-fixture';

const ACK_WAIT_MS = 3_000;
const env = platformFixture({ name: 'no-lost-work', extraEnv: { TRANSMUTE_ACK_WAIT_MS: String(ACK_WAIT_MS) } });

/**
 * Side of the noise PNG. Measured on the 2-core test machine with the
 * converter's own pipeline (png -> jpg, mozjpeg, quality 80): 4000 px takes
 * ~5 s and 5000 px ~9 s, so a kill right after the task is seen `processing`
 * lands well inside the conversion. Override with E2E_NO_LOST_WORK_SIZE.
 */
const SIZE = Number(process.env['E2E_NO_LOST_WORK_SIZE'] ?? 5_000);
const CONVERTER = 'converter-image';
const CONVERT = 'convert-my-file';
const EXPORT = 'export-my-file';

let sample: Sample;
beforeAll(async () => {
  sample = await noisePng(SIZE);
}, 120_000);

const elapsed = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

test('a converter SIGKILLed mid-task loses no work: the task is redelivered and the job finishes', async () => {
  const { client, platform, logDir } = env();
  const log = (line: string) => process.stdout.write(`[no-lost-work] ${line}\n`);
  log(`source ${SIZE}x${SIZE} noise PNG, ${(sample.bytes.length / 1e6).toFixed(1)} MB; logs in ${logDir}`);

  const job = await client.createJob(uploadConvertExport('png', 'jpg', 'e2e-no-lost-work'));
  const form = taskOf(job, 'import-my-file').result?.form;
  if (!form) throw new Error('no upload form on the import task');
  expect((await client.upload(form, sample.bytes)).status).toBe(200);
  await client.completeUpload(job.id);
  const completedAt = Date.now();

  // The first converter has the task and reported it started.
  const processing = await waitForJob(client, job.id, (current) => taskOf(current, CONVERT).status === 'processing', 60_000, {
    intervalMs: 50,
    waitingFor: `${CONVERT} processing`,
  });
  log(`${CONVERT} processing ${elapsed(completedAt)} after complete-upload: ${jobState(processing)}`);

  const converter = platform.services.find((service) => service.name === CONVERTER);
  if (!converter) throw new Error(`no ${CONVERTER} among ${platform.services.map((service) => service.name).join(', ')}`);
  const firstPid = converter.pid;
  platform.killService(CONVERTER, 'SIGKILL');
  const killedAt = Date.now();
  while (converter.running) {
    if (Date.now() - killedAt > 10_000) throw new Error(`${CONVERTER} (pid ${firstPid}) still running 10 s after SIGKILL`);
    await sleep(20);
  }
  log(`${CONVERTER} pid ${firstPid} killed ${elapsed(completedAt)} after complete-upload`);

  // The kill landed mid-task: nothing finished, and nothing finishes (or fails) while no converter runs,
  // for longer than the ack wait.
  const afterKill = await client.getJob(job.id);
  expect({ job: afterKill.status, convert: taskOf(afterKill, CONVERT).status }).toEqual({
    job: expect.not.stringMatching(/^(finished|failed)$/),
    convert: 'processing',
  });
  await sleep(ACK_WAIT_MS + 1_000);
  const whileDown = await client.getJob(job.id);
  expect({ job: whileDown.status, convert: taskOf(whileDown, CONVERT).status, export: taskOf(whileDown, EXPORT).status }).toEqual({
    job: expect.not.stringMatching(/^(finished|failed)$/),
    convert: expect.not.stringMatching(/^(finished|failed)$/),
    export: 'waiting_input',
  });

  await platform.startService(CONVERTER);
  expect(converter.pid).not.toBe(firstPid);
  const restartedAt = Date.now();
  log(`${CONVERTER} restarted as pid ${converter.pid} ${elapsed(killedAt)} after the kill`);

  const finished = await waitForFinished(client, job.id, 120_000);
  log(`job finished ${elapsed(restartedAt)} after the restart, ${elapsed(completedAt)} after complete-upload`);
  expect(finished.error).toBe('');
  expect(finished.tasks.map((task) => [task.name, task.status])).toEqual(finished.tasks.map((task) => [task.name, 'finished']));

  // Not the reconciler's doing: it dispatched nothing again.
  const orchestrator = platform.services.find((service) => service.name === 'job-orchestrator');
  const metrics = await fetch(`${orchestrator?.url}/metrics`).then((response) => response.text());
  expect(metricValue(metrics, 'transmute_tasks_redispatched_total') ?? 0).toBe(0);

  const url = taskOf(finished, EXPORT).result?.url;
  expect(url).toEqual(expect.any(String));
  const download = await client.download(url as string);
  expect(await decodeImage(download.file.bytes)).toEqual({ format: 'jpeg', width: SIZE, height: SIZE });
}, 300_000);
