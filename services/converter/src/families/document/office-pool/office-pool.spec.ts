import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Logger } from '@nestjs/common';
import { OfficePool } from './office-pool';
import { officeSocketPaths } from './office-sockets';
import type { OfficePoolSettings } from './office-pool.config';

/** The soffice.bin a pool started on `profiles`: the only process whose arguments name them. */
function sofficePid(profiles: string): number | undefined {
  return execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes('soffice.bin') && line.includes(profiles))
    .map((line) => Number(line.trim().split(/\s+/)[0]))[0];
}

/** The warm LibreOffice pool against real LibreOffice processes. */
describe('OfficePool', () => {
  let dir: string;
  const signal = () => AbortSignal.timeout(60_000);
  const config = (overrides: Partial<OfficePoolSettings> = {}): OfficePoolSettings => ({
    size: 2,
    maxConversions: 100,
    timeoutMs: 60_000,
    python: '/usr/bin/python3',
    soffice: 'soffice',
    ...overrides,
  });
  const textJob = (name: string, body: string) => ({
    input: join(dir, `${name}.txt`),
    output: join(dir, `${name}.odt`),
    importFilter: 'Text (encoded)',
    importOptions: 'UTF8',
    filter: 'writer8',
    body,
  });

  beforeAll(async () => {
    // The restarts these tests provoke on purpose would otherwise fill the run's output
    // (jest gives each test file its own Nest Logger, so no other file is affected).
    Logger.overrideLogger(false);
    dir = await mkdtemp(join(tmpdir(), 'office-pool-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('runs concurrent conversions on separate profiles without losing a file', async () => {
    const pool = new OfficePool(config({ profileRoot: join(dir, 'profiles') }));
    try {
      await pool.start();
      expect(pool.isReady).toBe(true);
      const jobs = Array.from({ length: 6 }, (_, index) => textJob(`many-${index}`, `document ${index}`));
      await Promise.all(jobs.map((job) => writeFile(job.input, job.body)));
      await Promise.all(jobs.map(({ body: _body, ...job }) => pool.convert(job, signal())));
      for (const job of jobs) expect((await stat(job.output)).size).toBeGreaterThan(0);
      // Both slots took work, and each has its own profile directory.
      expect(pool.servedCounts().every((count) => count > 0)).toBe(true);
      for (const slot of [0, 1]) expect((await stat(join(dir, 'profiles', `profile-${slot}`))).isDirectory()).toBe(true);
    } finally {
      await pool.stop();
    }
    expect(pool.isReady).toBe(false);
  });

  it('restarts a process after it has served maxConversions, and no killed LibreOffice leaves its sockets behind', async () => {
    const profiles = join(dir, 'worn-profiles');
    const pool = new OfficePool(config({ size: 1, maxConversions: 2, profileRoot: profiles }));
    try {
      const { body: _a, ...first } = textJob('worn-1', 'one');
      const { body: _b, ...third } = textJob('worn-3', 'three');
      for (const [job, body] of [
        [first, 'one'],
        [{ ...first, output: join(dir, 'worn-2.odt') }, 'two'],
        [third, 'three'],
      ] as const) {
        await writeFile(job.input, body);
        await pool.convert(job, signal());
      }
      // Two on the first process, then a fresh one served the third.
      expect(pool.servedCounts()).toEqual([1]);
      expect((await stat(third.output)).size).toBeGreaterThan(0);
    } finally {
      await pool.stop();
    }
    // Both processes were killed (the worn one, then the last at stop): neither left its UNO pipe or single-instance pipe.
    const [unoPipe, singleInstance] = officeSocketPaths(pathToFileURL(join(profiles, 'profile-0')).href, `transmute-office-${process.pid}-`);
    expect((await readdir('/tmp')).filter((name) => join('/tmp', name).startsWith(unoPipe!))).toEqual([]);
    await expect(stat(singleInstance!)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('kills a conversion that outlives the timeout; the next one runs on a fresh process, and readiness stays up', async () => {
    const pool = new OfficePool(config({ size: 1, timeoutMs: 1_500 }));
    try {
      await pool.start();
      const [hung] = pool.pids();
      // A document big enough to outlive the limit: LibreOffice lays out every page of a long text.
      const { body: _slow, ...slow } = textJob('slow', '');
      await writeFile(slow.input, 'a long line of text that wraps and wraps\n'.repeat(400_000));
      await expect(pool.convert({ ...slow, output: join(dir, 'slow.pdf'), filter: 'writer_pdf_Export' }, signal())).rejects.toThrow(/did not finish within 2 s/);
      expect(pool.isReady).toBe(true);
      const { body, ...job } = textJob('after', 'after');
      await writeFile(job.input, body);
      await pool.convert(job, signal());
      expect((await stat(job.output)).size).toBeGreaterThan(0);
      expect(pool.pids()[0]).not.toBe(hung);
    } finally {
      await pool.stop();
    }
  }, 180_000);

  it('is warm when ready: Writer has loaded its DOCX filters and the PDF writer, and the warm-up left no file', async () => {
    const profiles = join(dir, 'warm-profiles');
    const pool = new OfficePool(config({ size: 1, profileRoot: profiles }));
    // What a killed soffice and a bridge killed in the middle of its warm-up leave in the profile's temp dir.
    const temp = join(profiles, 'profile-0', 'tmp');
    const leftByKilled = [join(temp, 'lu4242abc.tmp', 'key4.db'), join(temp, 'warm-up', 'warm-up.docx')];
    for (const file of leftByKilled) {
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, 'left by a killed process');
    }
    try {
      await pool.start();
      // Read before any job: what a user's first conversion would otherwise have to load.
      const loaded = await readFile(`/proc/${sofficePid(profiles)}/maps`, 'utf8');
      for (const library of ['libswlo.so', 'libmswordlo.so', 'libooxlo.so', 'libpdffilterlo.so']) {
        expect({ library, loaded: loaded.includes(`/${library}`) }).toEqual({ library, loaded: true });
      }
      expect(pool.servedCounts()).toEqual([0]);
      // The start emptied what killed processes left, and the warm-up removed its own files.
      for (const file of leftByKilled) await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
      await expect(stat(join(temp, 'warm-up'))).rejects.toMatchObject({ code: 'ENOENT' });
      // soffice's own temporary directory is there, not in the shared temp dir.
      expect((await readdir(temp)).filter((name) => /^lu\w+\.tmp$/.test(name)).length).toBeGreaterThan(0);
    } finally {
      await pool.stop();
    }
  }, 180_000);

  it('brings back a LibreOffice that crashed while idle, with readiness up throughout', async () => {
    const profiles = join(dir, 'crash-profiles');
    const pool = new OfficePool(config({ size: 1, profileRoot: profiles }));
    try {
      await pool.start();
      const crashed = sofficePid(profiles)!;
      expect(crashed).toBeGreaterThan(0);
      const bridge = pool.pids()[0];
      let readyThroughout = true;
      const watch = setInterval(() => (readyThroughout &&= pool.isReady), 10);
      process.kill(crashed, 'SIGKILL');
      // The bridge follows its soffice out; the supervisor starts a new pair.
      await waitFor(() => pool.pids()[0] !== undefined && pool.pids()[0] !== bridge, 90_000);
      clearInterval(watch);
      expect(readyThroughout).toBe(true);
      expect(sofficePid(profiles)).not.toBe(crashed);
      const { body, ...job } = textJob('after-crash', 'after crash');
      await writeFile(job.input, body);
      await pool.convert(job, signal());
      expect((await stat(job.output)).size).toBeGreaterThan(0);
    } finally {
      await pool.stop();
    }
  }, 180_000);

  it('fails a damaged file with a clear message, and the process stays up', async () => {
    const pool = new OfficePool(config({ size: 1 }));
    try {
      const damaged = join(dir, 'damaged.docx');
      await writeFile(damaged, Buffer.from('PK\u0003\u0004 this is not really a zip package at all'));
      await expect(pool.convert({ input: damaged, output: join(dir, 'damaged.pdf'), importFilter: 'MS Word 2007 XML', filter: 'writer_pdf_Export' }, signal())).rejects.toThrow(
        /damaged or not in the format/,
      );
      expect(pool.isReady).toBe(true);
      const { body, ...job } = textJob('next', 'next');
      await writeFile(job.input, body);
      await pool.convert(job, signal());
      expect((await readFile(job.output)).subarray(0, 2).toString()).toBe('PK');
    } finally {
      await pool.stop();
    }
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
