import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { parseProcStat, parseSchedstatWait, parseVmRss, pidListeningOn, processTreeCpuSeconds, processUsage } from './proc-usage';

describe('parseProcStat', () => {
  it('reads utime + stime after a comm holding spaces and parentheses', () => {
    const line = '4242 (odd) name) S 1 4242 4242 0 -1 4194560 1000 0 0 0 250 75 0 0 20 0 12 0 3000 1000000 500';
    expect(parseProcStat(line)).toEqual({ name: 'odd) name', cpuTicks: 325, ppid: 1, reapedChildTicks: 0 });
  });

  it('reads the parent and the CPU of reaped children (cutime + cstime)', () => {
    const line = '77 (node) S 70 77 77 0 -1 4194560 1000 0 0 0 250 75 40 2 20 0 12 0 3000 1000000 500';
    expect(parseProcStat(line)).toMatchObject({ ppid: 70, cpuTicks: 325, reapedChildTicks: 42 });
  });

  it('refuses a line that is not a stat line', () => {
    expect(() => parseProcStat('nothing here')).toThrow(/not a \/proc/);
  });
});

describe('parseVmRss', () => {
  it('converts kB to bytes', () => {
    expect(parseVmRss('Name:\tnode\nVmRSS:\t   51200 kB\nThreads:\t7\n')).toBe(51200 * 1024);
  });
});

describe('parseSchedstatWait', () => {
  it('reads the run-queue wait (second field, ns)', () => {
    expect(parseSchedstatWait('81234567 15266656 42\n')).toBe(15266656);
  });
});

describe('on this process', () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('finds the process that listens on a port', async () => {
    expect(await pidListeningOn(port)).toBe(process.pid);
  });

  it('finds nobody on a port no one listens on', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const freed = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await pidListeningOn(freed)).toBeUndefined();
  });

  it('reports CPU time that grows with work and the resident memory', async () => {
    const before = await processUsage(process.pid);
    // Burn CPU until the kernel has counted at least two more ticks.
    let after = before;
    while (after.cpuSeconds < before.cpuSeconds + 0.02) {
      for (let i = 0; i < 1e6; i++) Math.sqrt(i);
      after = await processUsage(process.pid);
    }
    expect(after.cpuSeconds).toBeGreaterThan(before.cpuSeconds);
    expect(after.rssBytes).toBeGreaterThan(1024 * 1024);
    // Summed over live threads: one of jest's threads exiting between the readings lowers it, so only its range is fixed.
    expect(Number.isFinite(after.runQueueSeconds)).toBe(true);
    expect(after.runQueueSeconds).toBeGreaterThanOrEqual(0);
    expect(after.name).toMatch(/node|jest/);
  });

  it('counts in the tree the CPU of a child that ran and exited', async () => {
    const before = await processTreeCpuSeconds([process.pid]);
    // The child burns ~0.3 s of CPU, then exits and is reaped: only cutime/cstime of this process holds it then.
    execFileSync(process.execPath, ['-e', 'const end = process.cpuUsage().user + 3e5; while (process.cpuUsage().user < end);']);
    const after = await processTreeCpuSeconds([process.pid]);
    expect(after - before).toBeGreaterThanOrEqual(0.25);
  });

  it('is 0 for roots that do not exist', async () => {
    expect(await processTreeCpuSeconds([2 ** 30])).toBe(0);
  });
});
