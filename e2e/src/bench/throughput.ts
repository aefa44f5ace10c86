/**
 * `pnpm bench:throughput`: the platform against its own engines and a peer,
 * side by side in one run on one machine (issue 14's benchmark).
 *
 *   node e2e/dist/bench/throughput.js --start [--jobs N (200)] [--concurrency 1,8,16,32]
 *     [--docx-jobs N (24)] [--seed N (100000)] [--skip-docx] [--skip-seed] [--max-phase-seconds S (120)]
 *     [--large-runs N (3)] [--skip-large] [--quick]
 *
 * 1. Small image jobs: a 256x256 PNG -> JPG, import/base64 -> convert ->
 *    export/url, timed from the complete-upload request until the job's event
 *    stream says job.finished. Against the image family's own convert (sharp/libvips,
 *    in-process) in a loop with as many conversions at a time as the platform
 *    has image converter slots (TRANSMUTE_WORKER_CONCURRENCY, default 2).
 * 2. DOCX -> PDF (10 pages): the document family's warm LibreOffice pool alone
 *    (TRANSMUTE_OFFICE_POOL_SIZE, default 2) against the platform end to end
 *    and against unoserver (one daemon per pool process) + unoconvert.
 * 3. Large file: a 4000x3000 noise PNG -> WebP, upload to the last byte
 *    downloaded, against the `vips` CLI alone, with the image converter's RSS.
 * 4. Store size: phase 1 again after --seed jobs were written straight into
 *    the orchestrator's store (store-seeder.ts), with the store servers' CPU
 *    time and RSS around every phase.
 *
 * Around every platform phase the CPU of the whole platform (services, NATS,
 * FerretDB and the engines they spawn, from /proc) is read, and printed per
 * job; at concurrency 16 the small jobs also run with a client polling every
 * 250 ms instead of following the event stream. --quick: a few minutes'
 * run (40 jobs at 1 and 16, 8 DOCX jobs, 2000 seeded, one large file).
 *
 * Without --start it drives TRANSMUTE_URL (default http://127.0.0.1:8080);
 * the store is then found through --nats / --mongo (or TRANSMUTE_NATS_URL,
 * TRANSMUTE_MONGODB_URI). Traffic stays on loopback; every phase is bounded
 * by --jobs and --max-phase-seconds. Exits 1 when any job failed.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { TransmuteClient } from '../support/api-client';
import { taskOf } from '../support/api-types';
import { DATABASE_NAME } from '@transmute/devstack';
import { decodeImage, gradientPng } from '../support/samples';
import { type BenchTarget, makeUpProcesses, openBenchTarget, positiveInteger, positiveIntegerList } from './bench-kit';
import { runEngineLoop, writeBenchDocx } from './engine-loop-client';
import { base64Job, type Outcome, type PhaseResult, runEventJob, runPhase, runPollJob, type Summary, summarize, summarizePhase } from './job-phase';
import { ServiceProfiler } from './profiling/service-profiler';
import { type JobStoreSeeder, openJobStoreSeeder } from './store-seeder';
import { cpuShares, portOf, snapshot, type StoreServer, usageLines } from './store-usage';
import { largeFileSection, type LargeFileResult } from './large-file';
import { PlatformCpu } from './platform-cpu';
import { ensureUnoserver, startUnoservers } from './unoserver-peer';

const USAGE = `usage: node e2e/dist/bench/throughput.js [--start] [--jobs N (200)] [--concurrency LIST (1,8,16,32)]
  [--docx-jobs N (24)] [--seed N (100000)] [--skip-docx] [--skip-seed] [--max-phase-seconds S (120)]
  [--large-runs N (3)] [--skip-large] [--quick (40 jobs at 1,16; 8 DOCX; 2000 seeded; 1 large run)]
  [--nats URL] [--mongo URI]   (the store of a running platform, without --start)
  [--profile DIR]   (with --start: the small jobs @16 once more, with V8's sampling profiler in every service)`;
const JOB_TIMEOUT_MS = 60_000;
const DEFAULT_SLOTS = 2;
const DEFAULT_POOL_SIZE = 2;
const POLL_INTERVAL_MS = 250;
/** The concurrency of the issue's CPU-per-job and throughput targets. */
const TARGET_CONCURRENCY = 16;

interface Options {
  start: boolean;
  jobs: number;
  concurrency: number[];
  docxJobs: number;
  seed: number;
  skipDocx: boolean;
  skipSeed: boolean;
  skipLarge: boolean;
  largeRuns: number;
  maxPhaseMs: number;
  natsUrl: string | undefined;
  mongoUri: string | undefined;
  profileDir: string | undefined;
}

function readOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      start: { type: 'boolean', default: false },
      jobs: { type: 'string' },
      concurrency: { type: 'string' },
      'docx-jobs': { type: 'string' },
      seed: { type: 'string' },
      'skip-docx': { type: 'boolean', default: false },
      'skip-seed': { type: 'boolean', default: false },
      'skip-large': { type: 'boolean', default: false },
      'large-runs': { type: 'string' },
      quick: { type: 'boolean', default: false },
      'max-phase-seconds': { type: 'string' },
      nats: { type: 'string' },
      mongo: { type: 'string' },
      profile: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const quick = values.quick ?? false;
  return {
    start: values.start ?? false,
    jobs: positiveInteger('jobs', values.jobs, quick ? 40 : 200),
    concurrency: positiveIntegerList('concurrency', values.concurrency, quick ? [1, TARGET_CONCURRENCY] : [1, 8, TARGET_CONCURRENCY, 32]),
    docxJobs: positiveInteger('docx-jobs', values['docx-jobs'], quick ? 8 : 24),
    seed: positiveInteger('seed', values.seed, quick ? 2000 : 100_000),
    skipDocx: values['skip-docx'] ?? false,
    skipSeed: values['skip-seed'] ?? false,
    skipLarge: values['skip-large'] ?? false,
    largeRuns: positiveInteger('large-runs', values['large-runs'], quick ? 1 : 3),
    maxPhaseMs: positiveInteger('max-phase-seconds', values['max-phase-seconds'], 120) * 1000,
    natsUrl: values.nats ?? process.env['TRANSMUTE_NATS_URL'],
    mongoUri: values.mongo ?? process.env['TRANSMUTE_MONGODB_URI'],
    profileDir: values.profile,
  };
}

const log = (line = '') => process.stdout.write(`${line}\n`);
const num = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '-');

const HEADER = `${'run'.padEnd(34)} ${'jobs/s'.padStart(7)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'errors'.padStart(6)} ${'added p50'.padStart(9)} ${'added p95'.padStart(9)}`;

/** One table row; `engineMs` (the engine's own time for one file) gives the platform's added latency. */
function row(label: string, summary: Summary, engineMs?: number): string {
  const added = (value: number) => (engineMs === undefined ? '' : num(value - engineMs));
  const cells = `${label.padEnd(34)} ${num(summary.jobsPerSecond, 2).padStart(7)} ${num(summary.p50).padStart(8)} ${num(summary.p95).padStart(8)} ${num(summary.p99).padStart(8)} ${String(summary.errors).padStart(6)} ${added(summary.p50).padStart(9)} ${added(summary.p95).padStart(9)}`;
  return [cells, ...summary.errorSamples.map((sample) => `    ${sample}`)].join('\n');
}

function machineLine(): string {
  const load = execFileSync('uptime', { encoding: 'utf8' }).trim();
  const busy = execFileSync('ps', ['-eo', 'pcpu,comm', '--sort=-pcpu', '--no-headers'], { encoding: 'utf8' })
    .split('\n')
    .slice(0, 6)
    .map((line) => line.trim())
    .filter(Boolean)
    .join('; ');
  return `${new Date().toISOString()} | ${load} | busiest: ${busy}`;
}

interface Store {
  servers: StoreServer[];
  /** The platform's service processes (with --start), to say where CPU went in each phase. */
  services: StoreServer[];
  seeder: JobStoreSeeder | undefined;
  /** Every platform process (services and store servers, with what they spawn). */
  cpu: PlatformCpu;
  /** False when the services were not found (a platform neither started here nor by `make up`): `cpu` then holds the store servers only. */
  cpuCoversPlatform: boolean;
}

async function openStore(target: BenchTarget, options: Options): Promise<Store> {
  const natsUrl = target.started?.infra.natsUrl ?? options.natsUrl;
  const mongoUri = target.started ? `${target.started.infra.mongoUri}${DATABASE_NAME}` : options.mongoUri;
  const servers: StoreServer[] = [];
  if (natsUrl) servers.push({ label: 'nats-server', port: portOf(natsUrl) });
  if (mongoUri) servers.push({ label: 'ferretdb', port: portOf(mongoUri) });
  const seeder = natsUrl || mongoUri ? await openJobStoreSeeder(natsUrl, mongoUri) : undefined;
  const services = target.started
    ? target.started.platform.services.map((service) => ({ label: service.name, pid: () => service.pid }))
    : (await makeUpProcesses(target.client.baseUrl)).filter((process) => !['nats-server', 'ferretdb'].includes(process.label));
  return { servers, services, seeder, cpu: new PlatformCpu([...services, ...servers]), cpuCoversPlatform: services.length > 0 };
}

/** One platform phase and what the whole platform's CPU spent per job in it (ms). */
interface MeasuredPhase {
  phase: PhaseResult;
  cpuMsPerJob: number;
}

/** Runs one platform phase and prints the store servers' usage and the platform's CPU per job around it. */
async function platformPhase(store: Store, name: string, jobs: number, concurrency: number, maxMs: number, job: (index: number) => Promise<Outcome>): Promise<MeasuredPhase> {
  const [before, servicesBefore] = [await snapshot(store.servers), await snapshot(store.services)];
  const { result: phase, cpuSeconds, processes } = await store.cpu.around(() => runPhase(name, jobs, concurrency, maxMs, job));
  for (const line of usageLines(before, await snapshot(store.servers))) log(`    store: ${line}`);
  if (store.services.length > 0) log(`    services' CPU s / run-queue wait s in the phase: ${cpuShares(servicesBefore, await snapshot(store.services))}`);
  const cpuMsPerJob = (1000 * cpuSeconds) / Math.max(1, phase.outcomes.length);
  const covered = store.cpuCoversPlatform ? '' : ', NATS and FerretDB only: the services were not found';
  log(`    platform CPU (${processes} processes and their children${covered}): ${cpuSeconds.toFixed(2)} s, ${num(cpuMsPerJob)} ms per job`);
  return { phase, cpuMsPerJob };
}

/** Downloads the first finished job's export and checks what came back (untimed). */
async function checkResult(client: TransmuteClient, phase: PhaseResult, check: (bytes: Buffer) => Promise<void>): Promise<void> {
  const first = phase.outcomes.find((outcome): outcome is Extract<Outcome, { ok: true }> => outcome.ok);
  const url = first?.job && taskOf(first.job, 'export-my-file').result?.url;
  if (!url) return;
  await check((await client.download(url)).file.bytes);
}

/**
 * The raw engine loop once: its figures and its own CPU per conversion, the
 * engine's cost on the machine as it is at that minute.
 */
interface RawLoop {
  summary: Summary;
  cpuMsPerJob: number;
}

/** The e2e figures of one concurrency and the raw engine loop run just before it, under the same background load. */
interface SmallJobResult {
  e2e: Summary;
  raw: RawLoop;
  cpuMsPerJob: number;
}

/** Platform CPU per job as a multiple of the raw loop's: the machine's speed moves both, their ratio far less (e2e/README.md). */
const cpuMultiple = (cpuMsPerJob: number, raw: RawLoop): string => `${num(cpuMsPerJob / raw.cpuMsPerJob, 2)}x`;

function againstRawLoop(cpuMsPerJob: number, raw: RawLoop): string {
  return `${cpuMultiple(cpuMsPerJob, raw)} the raw loop's ${num(raw.cpuMsPerJob)} ms per conversion`;
}

async function smallJobs(
  target: BenchTarget,
  store: Store,
  options: Options,
  png: Buffer,
  engineMs: number,
  rawLoop: () => Promise<RawLoop>,
  label: string,
): Promise<Map<number, SmallJobResult>> {
  const results = new Map<number, SmallJobResult>();
  for (const concurrency of options.concurrency) {
    // The machine is shared: its load changes from minute to minute, so each phase gets its own raw loop beside it.
    const raw = await rawLoop();
    log(row('  raw engine loop just before', raw.summary));
    const { phase, cpuMsPerJob } = await platformPhase(store, label, options.jobs, concurrency, options.maxPhaseMs, (index) =>
      runEventJob(target.client.baseUrl, target.apiKey, base64Job(png, 'png', 'jpg', `bench-${concurrency}-${index}`), JOB_TIMEOUT_MS),
    );
    await checkResult(target.client, phase, async (bytes) => {
      const image = await decodeImage(bytes);
      if (image.format !== 'jpeg' || image.width !== 256 || image.height !== 256) throw new Error(`the export is ${JSON.stringify(image)}, not a 256x256 JPEG`);
    });
    const e2e = summarizePhase(phase);
    results.set(concurrency, { e2e, raw, cpuMsPerJob });
    log(row(`  e2e @${concurrency} ${label} (${phase.outcomes.length})`, e2e, engineMs));
    log(`    e2e / raw loop just before: ${num((100 * e2e.jobsPerSecond) / raw.summary.jobsPerSecond)} %; platform CPU per job ${againstRawLoop(cpuMsPerJob, raw)}`);
  }
  return results;
}

/** The small jobs @16 once more, with every service profiled: the phase whose CPU per job issue 23 targets. */
async function profiledPhase(target: BenchTarget, store: Store, profiler: ServiceProfiler, options: Options, png: Buffer): Promise<void> {
  log(`\n== Profile: small image jobs @${TARGET_CONCURRENCY} on the event stream, V8's sampling profiler in every service (not in the figures above) ==`);
  const pids = store.services.map((service) => ('pid' in service ? service.pid() : undefined)).filter((pid): pid is number => pid !== undefined);
  profiler.start(pids);
  const { phase } = await platformPhase(store, 'profiled', options.jobs, TARGET_CONCURRENCY, options.maxPhaseMs, (index) =>
    runEventJob(target.client.baseUrl, target.apiKey, base64Job(png, 'png', 'jpg', `bench-profiled-${index}`), JOB_TIMEOUT_MS),
  );
  for (const line of await profiler.stop(pids)) log(line);
  log(`  ${phase.outcomes.length} jobs in the profiled phase`);
}

async function main(): Promise<number> {
  const options = readOptions(process.argv.slice(2));
  const families = options.skipDocx ? ['image'] : ['image', 'document'];
  log(`machine at start: ${machineLine()}`);
  if (options.profileDir && !options.start) throw new Error('--profile needs --start: the services must start with the profiler loaded');
  const profiler = options.profileDir ? await ServiceProfiler.prepare(options.profileDir) : undefined;
  const target = await openBenchTarget(options.start, { name: 'bench-throughput', families });
  const dir = await mkdtemp(join(tmpdir(), 'transmute-bench-throughput-'));
  const store = await openStore(target, options);
  let failed = true;
  try {
    const slots = Number(target.started?.platform.env['TRANSMUTE_WORKER_CONCURRENCY'] ?? process.env['TRANSMUTE_WORKER_CONCURRENCY'] ?? DEFAULT_SLOTS);
    const poolSize = Number(target.started?.platform.env['TRANSMUTE_OFFICE_POOL_SIZE'] ?? process.env['TRANSMUTE_OFFICE_POOL_SIZE'] ?? DEFAULT_POOL_SIZE);
    const sample = await gradientPng(256, 256);
    const pngPath = join(dir, 'bench.png');
    await writeFile(pngPath, sample.bytes);
    log(
      `target ${target.client.baseUrl}; store servers: ${store.servers.map((s) => ('port' in s ? `${s.label}:${s.port}` : s.label)).join(', ') || 'unknown (pass --nats/--mongo)'}`,
    );
    log(`image converter slots ${slots}, office pool size ${poolSize}; ${options.jobs} jobs per phase, at most ${options.maxPhaseMs / 1000} s each`);

    // 1. Small image jobs.
    log(`\n== Small image jobs: 256x256 PNG (${sample.bytes.length} bytes) -> JPG; e2e timed from complete-upload to job.finished on the event stream ==`);
    const engine = await runEngineLoop({ family: 'image', input: pngPath, to: 'jpg', jobs: options.jobs, concurrency: [1, slots], maxSeconds: options.maxPhaseMs / 1000 });
    const [single, raw] = engine.runs.map((run) => summarize(run.durationsMs, run.errors, run.wallMs)) as [Summary, Summary];
    const engineMs = single.p50;
    log(`engine: ${engine.engineVersion} (in-process), its own time for this file p50 ${num(engineMs, 2)} ms`);
    log(HEADER);
    log(row('engine, 1 at a time', single));
    log(row(`raw engine loop, ${slots} at a time`, raw));
    const warmUp = await runEventJob(target.client.baseUrl, target.apiKey, base64Job(sample.bytes, 'png', 'jpg', 'bench-warm-up'), JOB_TIMEOUT_MS);
    if (!warmUp.ok || !warmUp.job) throw new Error(`the warm-up job failed: ${warmUp.ok ? 'no job' : warmUp.error}`);
    const warmUpId = warmUp.job.id;
    const rawLoop = async (): Promise<RawLoop> => {
      const report = await runEngineLoop({ family: 'image', input: pngPath, to: 'jpg', jobs: options.jobs, concurrency: [slots], maxSeconds: options.maxPhaseMs / 1000 });
      const run = report.runs[0]!;
      // Per attempt, failed ones too, as the platform's figure is per job that ended either way.
      const attempts = run.durationsMs.length + run.errors.length;
      return { summary: summarize(run.durationsMs, run.errors, run.wallMs), cpuMsPerJob: run.cpuMs / Math.max(1, attempts) };
    };
    const empty = await smallJobs(target, store, options, sample.bytes, engineMs, rawLoop, 'empty store');
    const at16 = empty.get(TARGET_CONCURRENCY);
    if (at16) {
      log(
        `ratio e2e@${TARGET_CONCURRENCY} / raw loop: ${num((100 * at16.e2e.jobsPerSecond) / at16.raw.summary.jobsPerSecond)} % against the loop just before it, ${num((100 * at16.e2e.jobsPerSecond) / raw.jobsPerSecond)} % against the first (errors ${at16.e2e.errors})`,
      );
    }
    let errors = [...empty.values()].reduce((sum, { e2e }) => sum + e2e.errors, 0);
    const summary: TargetRow[] = [];

    // The same small jobs at 16, followed by a client that polls instead of reading the event stream.
    log(`\n== Small image jobs @${TARGET_CONCURRENCY}, each followed by a GET every ${POLL_INTERVAL_MS} ms ==`);
    log(HEADER);
    const rawBeforePolling = await rawLoop();
    log(row('  raw engine loop just before', rawBeforePolling.summary));
    const polled = await platformPhase(store, 'polling', options.jobs, TARGET_CONCURRENCY, options.maxPhaseMs, (index) =>
      runPollJob(target.client.baseUrl, target.apiKey, base64Job(sample.bytes, 'png', 'jpg', `bench-poll-${index}`), POLL_INTERVAL_MS, JOB_TIMEOUT_MS),
    );
    const polledSummary = summarizePhase(polled.phase);
    errors += polledSummary.errors;
    log(row(`  e2e @${TARGET_CONCURRENCY} polling (${polled.phase.outcomes.length})`, polledSummary, engineMs));
    log(`    platform CPU per job ${againstRawLoop(polled.cpuMsPerJob, rawBeforePolling)}`);
    if (profiler) await profiledPhase(target, store, profiler, options, sample.bytes);
    const at1 = empty.get(1);
    const cpuValue = (ms: number, raw: RawLoop) => (store.cpuCoversPlatform ? `${num(ms)} ms (${againstRawLoop(ms, raw)})` : 'not measured (services not found)');
    summary.push(
      {
        figure: `platform CPU per small job @${TARGET_CONCURRENCY}, event stream`,
        value: at16 ? cpuValue(at16.cpuMsPerJob, at16.raw) : 'not run',
        target: '<= 20 ms',
        met: at16 && store.cpuCoversPlatform ? at16.cpuMsPerJob <= 20 : undefined,
      },
      {
        figure: `platform CPU per small job @${TARGET_CONCURRENCY}, polling ${POLL_INTERVAL_MS} ms`,
        value: cpuValue(polled.cpuMsPerJob, rawBeforePolling),
        target: '<= 30 ms',
        met: store.cpuCoversPlatform ? polled.cpuMsPerJob <= 30 : undefined,
      },
      {
        figure: `small jobs @${TARGET_CONCURRENCY} / raw engine loop`,
        value: at16
          ? `${num((100 * at16.e2e.jobsPerSecond) / at16.raw.summary.jobsPerSecond)} % (${num(at16.e2e.jobsPerSecond, 2)} vs ${num(at16.raw.summary.jobsPerSecond, 2)} jobs/s)`
          : 'not run',
        target: '>= 40 %',
        met: at16 ? at16.e2e.jobsPerSecond >= 0.4 * at16.raw.summary.jobsPerSecond && at16.e2e.errors === 0 : undefined,
      },
      {
        figure: 'added latency p50, 1 at a time',
        value: at1 ? `${num(at1.e2e.p50 - engineMs)} ms` : 'not run',
        target: '<= 15 ms',
        met: at1 ? at1.e2e.p50 - engineMs <= 15 : undefined,
      },
    );

    // 2. DOCX -> PDF.
    if (!options.skipDocx) {
      const docx = await docxSection(target, store, options, dir, poolSize);
      errors += docx.errors;
      summary.push(...docx.rows);
    }

    // 3. Large file.
    if (!options.skipLarge) {
      const converter = store.services.find((service): service is Extract<StoreServer, { pid: unknown }> => service.label === 'converter-image' && 'pid' in service);
      const large = await largeFileSection({
        client: target.client,
        apiKey: target.apiKey,
        dir,
        runs: options.largeRuns,
        cpu: store.cpu,
        converterPid: () => converter?.pid(),
        log,
      });
      summary.push(...largeFileRows(large, converter !== undefined));
    }

    // 3. Store size.
    if (!options.skipSeed) {
      if (!store.seeder) {
        log('\n== Store size: skipped, the store is unknown (pass --start, or --mongo/--nats for a running platform) ==');
      } else {
        await store.seeder.prepare(warmUpId);
        log(`\n== Store size: ${options.seed} copies of the warm-up job's records (${store.seeder.describe()}) ==`);
        const before = await snapshot(store.servers);
        const holdings = await store.seeder.holdings();
        const began = performance.now();
        let reported = 0;
        await store.seeder.seed(options.seed, (written) => {
          if (written - reported >= options.seed / 10 || written === options.seed) log(`  seeded ${(reported = written)}`);
        });
        const seconds = (performance.now() - began) / 1000;
        log(`  ${options.seed} jobs in ${num(seconds)} s (${num(options.seed / seconds, 0)} jobs/s); before: ${holdings}; after: ${await store.seeder.holdings()}`);
        for (const line of usageLines(before, await snapshot(store.servers))) log(`    store while seeding: ${line}`);
        log(HEADER);
        const seeded = await smallJobs(target, store, options, sample.bytes, engineMs, rawLoop, `after ${options.seed}`);
        errors += [...seeded.values()].reduce((sum, { e2e }) => sum + e2e.errors, 0);
        for (const [concurrency, { e2e, raw: rawThen, cpuMsPerJob }] of seeded) {
          const base = empty.get(concurrency);
          if (!base) continue;
          // Also relative to each phase's raw loop, which takes out the machine's changing load.
          const relative = (100 * e2e.jobsPerSecond) / rawThen.summary.jobsPerSecond / ((100 * base.e2e.jobsPerSecond) / base.raw.summary.jobsPerSecond);
          log(
            `  @${concurrency}: ${num(e2e.jobsPerSecond, 2)} vs ${num(base.e2e.jobsPerSecond, 2)} jobs/s empty = ${num((100 * e2e.jobsPerSecond) / base.e2e.jobsPerSecond)} %; as shares of their raw loops ${num(100 * relative)} % (target >= 90 %); platform CPU per job ${num(cpuMsPerJob)} vs ${num(base.cpuMsPerJob)} ms empty (${againstRawLoop(cpuMsPerJob, rawThen)}; empty: ${cpuMultiple(base.cpuMsPerJob, base.raw)})`,
          );
          summary.push({
            figure: `after ${options.seed} stored / empty, @${concurrency} (shares of raw loops)`,
            value: `${num(100 * relative)} %`,
            target: '>= 90 %',
            met: relative >= 0.9,
          });
        }
      }
    }
    log(`\n== Against the targets of issue 23 (this run; load average at start and end above) ==`);
    for (const line of targetLines(summary)) log(line);
    log(`\nmachine at end: ${machineLine()}`);
    failed = errors > 0;
    return failed ? 1 : 0;
  } finally {
    await store.seeder?.close().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
    await target.stop(failed);
  }
}

async function docxSection(target: BenchTarget, store: Store, options: Options, dir: string, poolSize: number): Promise<{ errors: number; rows: TargetRow[] }> {
  const { path: docx, bytes } = await writeBenchDocx(dir);
  const levels = [1, 4];
  log(`\n== DOCX -> PDF: 10-page DOCX (${bytes.length} bytes), ${options.docxJobs} jobs per run; office pool size ${poolSize} (TRANSMUTE_OFFICE_POOL_SIZE) ==`);
  const pool = await runEngineLoop({ family: 'document', input: docx, to: 'pdf', jobs: options.docxJobs, concurrency: levels, maxSeconds: options.maxPhaseMs / 1000 });
  const poolRuns = pool.runs.map((run) => summarize(run.durationsMs, run.errors, run.wallMs));
  const poolMs = poolRuns[0]?.p50;
  log(HEADER);
  levels.forEach((level, index) => log(row(`warm pool alone @${level}`, poolRuns[index]!)));
  const e2e: Summary[] = [];
  let errors = 0;
  for (const level of levels) {
    const { phase } = await platformPhase(store, 'docx', options.docxJobs, level, options.maxPhaseMs, (index) =>
      runEventJob(target.client.baseUrl, target.apiKey, base64Job(bytes, 'docx', 'pdf', `bench-docx-${level}-${index}`), JOB_TIMEOUT_MS * 2),
    );
    await checkResult(target.client, phase, async (pdf) => {
      if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-') throw new Error('the DOCX export is not a PDF');
    });
    const summary = summarizePhase(phase);
    errors += summary.errors;
    e2e.push(summary);
    log(row(`e2e @${level}`, summary, poolMs));
  }
  const peer: Summary[] = [];
  try {
    await ensureUnoserver(log);
    const uno = await startUnoservers(poolSize, dir, docx);
    try {
      for (const level of levels) {
        let next = 0;
        const phase = await runPhase('unoserver', options.docxJobs, level, options.maxPhaseMs, async (): Promise<Outcome> => {
          const index = next++;
          try {
            return { ok: true, latencyMs: await uno.convert(index, docx, join(dir, `peer-${index}.pdf`)) };
          } catch (error) {
            return { ok: false, error: (error as Error).message.split('\n')[0] ?? String(error) };
          }
        });
        peer.push(summarizePhase(phase));
        log(row(`${uno.version} x${poolSize} @${level}`, peer[peer.length - 1]!, poolMs));
      }
    } finally {
      await uno.stop();
    }
  } catch (error) {
    log(`  peer: not run: ${(error as Error).message}`);
  }
  const rows: TargetRow[] = [];
  levels.forEach((level, index) => {
    const share = (a: Summary | undefined, b: Summary | undefined) => (a && b ? a.jobsPerSecond / b.jobsPerSecond : undefined);
    const percent = (value: number | undefined) => (value === undefined ? 'n/a' : `${num(100 * value)} %`);
    const [ofPool, ofPeer] = [share(e2e[index], poolRuns[index]), share(e2e[index], peer[index])];
    log(`  @${level}: e2e/pool ${percent(ofPool)} (target >= 75 %), e2e/peer ${percent(ofPeer)} (target >= 200 %)`);
    rows.push(
      { figure: `DOCX -> PDF @${level} / warm pool`, value: percent(ofPool), target: '>= 75 %', met: ofPool === undefined ? undefined : ofPool >= 0.75 },
      { figure: `DOCX -> PDF @${level} / unoserver`, value: percent(ofPeer), target: '>= 200 %', met: ofPeer === undefined ? undefined : ofPeer >= 2 },
    );
  });
  return { errors, rows };
}

/** One row of the issue's table: the figure this run measured against its target. */
interface TargetRow {
  figure: string;
  value: string;
  target: string;
  /** undefined: not measured in this run. */
  met: boolean | undefined;
}

function targetLines(rows: readonly TargetRow[]): string[] {
  const verdict = (met: boolean | undefined) => (met === undefined ? 'not measured' : met ? 'met' : 'NOT met');
  return rows.map((r) => `  ${r.figure.padEnd(52)} ${r.value.padEnd(34)} ${r.target === '-' ? '' : `target ${r.target.padEnd(9)} ${verdict(r.met)}`}`.trimEnd());
}

function largeFileRows(large: LargeFileResult, rssKnown: boolean): TargetRow[] {
  const ratio = large.e2eMs / large.vipsMs;
  const peakMb = large.converterRssPeakBytes / 1e6;
  return [
    {
      figure: '4000x3000 PNG -> WebP, upload to last byte / vips CLI',
      value: `${num(ratio, 2)}x (${num(large.e2eMs, 0)} vs ${num(large.vipsMs, 0)} ms)`,
      target: '<= 1.2x',
      met: ratio <= 1.2,
    },
    {
      figure: 'converter RSS during that conversion (peak)',
      value: rssKnown ? `${num(peakMb, 0)} MB (${num(large.converterRssBeforeBytes / 1e6, 0)} MB before)` : 'unknown without --start',
      target: '<= 300 MB',
      met: rssKnown ? peakMb <= 300 : undefined,
    },
    { figure: 'platform CPU for that job', value: `${num(large.cpuSecondsPerJob, 2)} s`, target: '-', met: undefined },
  ];
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench:throughput failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    const cause: unknown = error instanceof Error ? error.cause : undefined;
    if (cause) process.stderr.write(`cause: ${cause instanceof Error ? (cause.stack ?? cause.message) : JSON.stringify(cause)}\n`);
    process.exit(2);
  },
);
