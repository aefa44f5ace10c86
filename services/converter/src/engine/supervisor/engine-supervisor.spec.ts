import { mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { register } from 'prom-client';
import { ServiceFailure } from '@transmute/contracts';
import { EngineSupervisor, type EngineSupervisorSettings } from './engine-supervisor';
import { type FakeJob, fakeEngineFactory, writeFakeEngine } from './fake-engine.test-support';

/** The supervisor against real child processes (a tiny node script speaking the engine protocol). */
describe('EngineSupervisor', () => {
  let dir: string;
  let script: string;
  let failStartFile: string;
  const supervisors: EngineSupervisor<FakeJob>[] = [];
  // Each test's supervisor has its own engine label, so its metrics start from zero.
  let engine = '';
  let created = 0;
  const signal = () => AbortSignal.timeout(10_000);

  // The restarts these tests provoke on purpose would otherwise fill the run's output
  // (jest gives each test file its own Nest Logger, so no other file is affected).
  beforeAll(() => Logger.overrideLogger(false));

  function supervise(overrides: Partial<EngineSupervisorSettings> = {}, failStart: string | ((slot: number) => string) = failStartFile): EngineSupervisor<FakeJob> {
    const supervisor = new EngineSupervisor<FakeJob>(
      {
        engine,
        label: 'FakeEngine',
        size: 1,
        maxConversions: 100,
        timeoutMs: 5_000,
        queueLimit: 4,
        idleStopMs: 0,
        failureThreshold: 3,
        ...overrides,
      },
      fakeEngineFactory(script, { failStartFile: failStart }),
    );
    supervisors.push(supervisor);
    return supervisor;
  }

  async function metricValue(name: string, labels: Record<string, string>): Promise<number> {
    const metric = await register.getSingleMetric(name)!.get();
    return metric.values.find((value) => Object.entries(labels).every(([key, expected]) => value.labels[key] === expected))?.value ?? 0;
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'engine-supervisor-'));
    script = await writeFakeEngine(dir);
    failStartFile = join(dir, 'fail-start');
  });
  beforeEach(() => {
    created += 1;
    engine = `fake-${created}`;
  });
  const slotFailFile = (slot: number) => `${failStartFile}-${slot}`;
  afterEach(async () => {
    await Promise.all([failStartFile, slotFailFile(0), slotFailFile(1)].map((file) => unlink(file).catch(() => undefined)));
    await Promise.all(supervisors.splice(0).map((supervisor) => supervisor.stop()));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('runs conversions on every process, and reports in flight and queue depth while they run', async () => {
    const supervisor = supervise({ size: 2 });
    await supervisor.start();
    expect(supervisor.isReady).toBe(true);
    const jobs = Array.from({ length: 4 }, () => supervisor.run({ action: 'ok', sleepMs: 300 }, signal()));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await metricValue('transmute_engine_in_flight', { engine })).toBe(2);
    expect(await metricValue('transmute_engine_queue_depth', { engine })).toBe(2);
    expect(await metricValue('transmute_engine_processes_up', { engine })).toBe(2);
    await Promise.all(jobs);
    expect(supervisor.servedCounts()).toEqual([2, 2]);
    expect(await metricValue('transmute_engine_in_flight', { engine })).toBe(0);
  });

  it('turns work away at once with a retryable backpressure failure when the queue is full', async () => {
    const supervisor = supervise({ queueLimit: 1 });
    await supervisor.start();
    const running = supervisor.run({ action: 'ok', sleepMs: 500 }, signal());
    const queued = supervisor.run({ action: 'ok' }, signal());
    await new Promise((resolve) => setTimeout(resolve, 50));
    const refusedAt = Date.now();
    const refusal = await supervisor.run({ action: 'ok' }, signal()).catch((error: unknown) => error);
    expect(Date.now() - refusedAt).toBeLessThan(100);
    expect(refusal).toBeInstanceOf(ServiceFailure);
    expect(refusal).toMatchObject({ retryable: true, backpressure: true });
    expect((refusal as Error).message).toMatch(/busy and 1 conversions are waiting/);
    await Promise.all([running, queued]);
    expect(await metricValue('transmute_engine_rejected_total', { engine })).toBe(1);
  });

  it('restarts a process after maxConversions, before it serves another', async () => {
    const supervisor = supervise({ maxConversions: 2 });
    await supervisor.start();
    const [first] = supervisor.pids();
    await supervisor.run({ action: 'ok' }, signal());
    await supervisor.run({ action: 'ok' }, signal());
    await supervisor.run({ action: 'ok' }, signal());
    expect(supervisor.pids()[0]).not.toBe(first);
    expect(supervisor.servedCounts()).toEqual([1]);
    expect(await metricValue('transmute_engine_restarts_total', { engine, reason: 'max_conversions' })).toBe(1);
  });

  it('kills a hung conversion at the time limit; the next conversion gets a fresh process', async () => {
    const supervisor = supervise({ timeoutMs: 300 });
    await supervisor.start();
    const [hung] = supervisor.pids();
    const startedAt = Date.now();
    await expect(supervisor.run({ action: 'hang' }, signal())).rejects.toThrow('FakeEngine did not finish within 0 s');
    expect(Date.now() - startedAt).toBeLessThan(1_000);
    await waitFor(() => !processExists(hung!));
    await supervisor.run({ action: 'ok' }, signal());
    expect(supervisor.pids()[0]).not.toBe(hung);
    expect(supervisor.isReady).toBe(true);
    expect(await metricValue('transmute_engine_restarts_total', { engine, reason: 'hang' })).toBe(1);
  });

  it('fails a conversion whose process crashed as retryable, and restarts it without turning unhealthy', async () => {
    const supervisor = supervise();
    await supervisor.start();
    const [crashed] = supervisor.pids();
    const failure = await supervisor.run({ action: 'crash' }, signal()).catch((error: unknown) => error);
    expect(failure).toMatchObject({ retryable: true });
    expect((failure as Error).message).toMatch(/FakeEngine exited \(code 9\)/);
    expect(supervisor.isReady).toBe(true);
    await supervisor.run({ action: 'ok' }, signal());
    expect(supervisor.pids()[0]).not.toBe(crashed);
    expect(await metricValue('transmute_engine_restarts_total', { engine, reason: 'crash' })).toBe(1);
  });

  it('brings back a process killed while idle, staying healthy throughout', async () => {
    const supervisor = supervise();
    await supervisor.start();
    const [killed] = supervisor.pids();
    let healthyThroughout = true;
    const watch = setInterval(() => (healthyThroughout &&= supervisor.isReady), 5);
    process.kill(killed!, 'SIGKILL');
    await waitFor(() => supervisor.pids()[0] !== undefined && supervisor.pids()[0] !== killed);
    clearInterval(watch);
    expect(healthyThroughout).toBe(true);
    await supervisor.run({ action: 'ok' }, signal());
  });

  it('passes a refusal through as a permanent failure and keeps the process', async () => {
    const supervisor = supervise();
    await supervisor.start();
    const [pid] = supervisor.pids();
    await expect(supervisor.run({ action: 'refuse' }, signal())).rejects.toMatchObject({
      retryable: false,
      message: 'FakeEngine could not convert the file: cannot read this',
    });
    expect(supervisor.pids()).toEqual([pid]);
  });

  it('stops its processes when idle and starts them again for the next conversion', async () => {
    const supervisor = supervise({ idleStopMs: 200 });
    await supervisor.start();
    await supervisor.run({ action: 'ok' }, signal());
    await waitFor(() => supervisor.processesUp === 0);
    expect(supervisor.isReady).toBe(true);
    await supervisor.run({ action: 'ok' }, signal());
    expect(supervisor.processesUp).toBe(1);
    // An idle stop is not a restart.
    expect(await metricValue('transmute_engine_restarts_total', { engine })).toBe(0);
  });

  it('turns not ready only after failureThreshold failed starts in a row, and recovers on its own', async () => {
    const supervisor = supervise({ failureThreshold: 2 });
    await supervisor.start();
    await writeFile(failStartFile, '');
    process.kill(supervisor.pids()[0]!, 'SIGKILL');
    // The first failed start is not enough; the back-off retry is the second.
    await waitFor(() => !supervisor.isReady, 5_000);
    expect(supervisor.readiness()).toMatchObject({
      ready: false,
      detail: expect.stringMatching(/^FakeEngine is down: 2 start\(s\) in a row failed, the last with: .*refusing to start/),
    });
    expect(await metricValue('transmute_engine_start_failures_total', { engine })).toBeGreaterThanOrEqual(2);
    await unlink(failStartFile);
    await waitFor(() => supervisor.isReady && supervisor.processesUp === 1, 10_000);
    await supervisor.run({ action: 'ok' }, signal());
  }, 20_000);

  it('survives a first start that fails: not ready, work sent back as retryable, then up after the retry', async () => {
    await writeFile(failStartFile, '1');
    const supervisor = supervise();
    // Resolves, never rejects: the failed slot is retried in the background.
    await supervisor.start();
    expect(supervisor.isReady).toBe(false);
    expect(supervisor.readiness().detail).toMatch(
      /^FakeEngine has not come up yet: 1 start\(s\) in a row failed, the last with: FakeEngine could not start: .*refusing to start.*; next try in 1 s$/,
    );
    const refusal = await supervisor.run({ action: 'ok' }, signal()).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ServiceFailure);
    expect(refusal).toMatchObject({ retryable: true, backpressure: false });
    expect((refusal as Error).message).toMatch(/^FakeEngine is not running: FakeEngine has not come up yet/);
    await waitFor(() => supervisor.isReady, 5_000);
    expect(supervisor.readiness()).toEqual({ ready: true, detail: 'FakeEngine: 1 of 1 process(es) up' });
    await supervisor.run({ action: 'ok' }, signal());
    expect(await metricValue('transmute_engine_start_failures_total', { engine })).toBe(1);
  });

  it('serves on the slots that came up while a failed one waits for its retry, then uses both', async () => {
    await writeFile(slotFailFile(1), '1');
    const supervisor = supervise({ size: 2 }, slotFailFile);
    await supervisor.start();
    // One process up is enough to be ready: work flows while the other slot retries.
    expect(supervisor.isReady).toBe(true);
    expect(supervisor.processesUp).toBe(1);
    await Promise.all([supervisor.run({ action: 'ok', sleepMs: 100 }, signal()), supervisor.run({ action: 'ok', sleepMs: 100 }, signal())]);
    expect(supervisor.servedCounts()).toEqual([2, 0]);
    await waitFor(() => supervisor.processesUp === 2, 5_000);
    await Promise.all([supervisor.run({ action: 'ok', sleepMs: 200 }, signal()), supervisor.run({ action: 'ok', sleepMs: 200 }, signal())]);
    expect(supervisor.servedCounts()[1]).toBeGreaterThan(0);
  });

  it('holds conversions that arrive while the first start runs, and serves them once a process is up', async () => {
    const supervisor = new EngineSupervisor<FakeJob>(
      { engine, label: 'FakeEngine', size: 1, maxConversions: 100, timeoutMs: 5_000, queueLimit: 4, idleStopMs: 0, failureThreshold: 3 },
      fakeEngineFactory(script, { failStartFile, startDelayMs: 500 }),
    );
    supervisors.push(supervisor);
    const starting = supervisor.start();
    expect(supervisor.readiness()).toEqual({ ready: false, detail: 'FakeEngine is starting' });
    await Promise.all([supervisor.run({ action: 'ok' }, signal()), supervisor.run({ action: 'ok' }, signal()), starting]);
    expect(supervisor.servedCounts()).toEqual([2]);
  });

  it('stops a process that is still preparing its start: once stop resolves, nothing runs and nothing is spawned', async () => {
    let preparing = 0;
    let spawned = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const supervisor = new EngineSupervisor<FakeJob>(
      { engine, label: 'FakeEngine', size: 1, maxConversions: 100, timeoutMs: 5_000, queueLimit: 4, idleStopMs: 0, failureThreshold: 3 },
      fakeEngineFactory(script, { failStartFile, prepare: () => ((preparing += 1), gate), onSpawn: () => (spawned += 1) }),
    );
    supervisors.push(supervisor);
    const starting = supervisor.start();
    await waitFor(() => preparing === 1);

    const stopped = supervisor.stop();
    release();
    await stopped;
    await starting;
    expect(spawned).toBe(0);
    expect(supervisor.pids()).toEqual([undefined]);
    expect(await metricValue('transmute_engine_start_failures_total', { engine })).toBe(0);
  });

  it('cancels a waiting conversion without running it, and refuses work once stopped', async () => {
    const supervisor = supervise();
    await supervisor.start();
    const running = supervisor.run({ action: 'ok', sleepMs: 300 }, signal());
    const controller = new AbortController();
    const waiting = supervisor.run({ action: 'ok' }, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toThrow(/cancelled while waiting/);
    await running;
    expect(supervisor.servedCounts()).toEqual([1]);
    await supervisor.stop();
    expect(supervisor.isReady).toBe(false);
    await expect(supervisor.run({ action: 'ok' }, signal())).rejects.toThrow(/stopping/);
  });
});

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
