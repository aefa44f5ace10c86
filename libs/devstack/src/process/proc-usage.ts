import { readdir, readFile, readlink } from 'node:fs/promises';

/** CPU time and resident memory of one process, from /proc (Linux). */
export interface ProcessUsage {
  pid: number;
  /** The kernel's name of the program (`comm`). */
  name: string;
  /** User + system CPU seconds since the process started. */
  cpuSeconds: number;
  /** VmRSS in bytes. */
  rssBytes: number;
  /**
   * Seconds its live threads spent runnable but waiting for a CPU
   * (schedstat): what a process loses to others on a busy machine. A thread
   * that exits takes its wait with it, so unlike cpuSeconds this sum may
   * fall between two readings.
   */
  runQueueSeconds: number;
}

/** USER_HZ: the unit of utime/stime in /proc/<pid>/stat; 100 on every Linux architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * utime + stime (in ticks) and comm from a /proc/<pid>/stat line. comm sits
 * in parentheses and may itself hold spaces and parentheses, so the fields
 * are counted from the last ')'.
 */
export function parseProcStat(line: string): { name: string; cpuTicks: number; ppid: number; reapedChildTicks: number } {
  const open = line.indexOf('(');
  const close = line.lastIndexOf(')');
  if (open < 0 || close < open) throw new Error(`not a /proc/<pid>/stat line: ${line.slice(0, 80)}`);
  // After comm: state(3) ppid(4) ... utime(14) stime(15) cutime(16) cstime(17); fields[0] is state.
  const fields = line.slice(close + 2).split(' ');
  const [ppid, utime, stime, cutime, cstime] = [fields[1], fields[11], fields[12], fields[13], fields[14]].map(Number) as [number, number, number, number, number];
  if (![ppid, utime, stime, cutime, cstime].every(Number.isFinite)) throw new Error(`no ppid/utime/stime/cutime/cstime in /proc/<pid>/stat line: ${line.slice(0, 80)}`);
  return { name: line.slice(open + 1, close), cpuTicks: utime + stime, ppid, reapedChildTicks: cutime + cstime };
}

/** VmRSS from /proc/<pid>/status, in bytes. */
export function parseVmRss(status: string): number {
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  if (!match) throw new Error('no VmRSS line in /proc/<pid>/status');
  return Number(match[1]) * 1024;
}

/** Run-queue wait in nanoseconds: the second field of a /proc/<pid>/task/<tid>/schedstat line. */
export function parseSchedstatWait(line: string): number {
  const wait = Number(line.trim().split(/\s+/)[1]);
  if (!Number.isFinite(wait)) throw new Error(`not a schedstat line: ${line}`);
  return wait;
}

async function runQueueSeconds(pid: number): Promise<number> {
  const threads = await readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
  const waits = await Promise.all(threads.map((tid) => readFile(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').then(parseSchedstatWait, () => 0)));
  return waits.reduce((sum, wait) => sum + wait, 0) / 1e9;
}

export async function processUsage(pid: number): Promise<ProcessUsage> {
  const [stat, status, waiting] = await Promise.all([readFile(`/proc/${pid}/stat`, 'utf8'), readFile(`/proc/${pid}/status`, 'utf8'), runQueueSeconds(pid)]);
  const { name, cpuTicks } = parseProcStat(stat.trim());
  return { pid, name, cpuSeconds: cpuTicks / CLOCK_TICKS_PER_SECOND, rssBytes: parseVmRss(status), runQueueSeconds: waiting };
}

/**
 * CPU seconds of whole process trees: every live process under the roots
 * (engines a converter spawns, LibreOffice under the document family) plus
 * the children each has already reaped (cutime + cstime), so an engine that
 * ran and exited between two readings is counted once, in its parent.
 */
export async function processTreeCpuSeconds(roots: readonly number[]): Promise<number> {
  const stats = new Map<number, ReturnType<typeof parseProcStat>>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const line = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => undefined);
    if (line) stats.set(Number(entry), parseProcStat(line.trim()));
  }
  const children = new Map<number, number[]>();
  for (const [pid, stat] of stats) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), pid]);
  const seen = new Set<number>();
  const pending = roots.filter((pid) => stats.has(pid));
  let ticks = 0;
  while (pending.length > 0) {
    const pid = pending.pop() as number;
    if (seen.has(pid)) continue;
    seen.add(pid);
    const stat = stats.get(pid) as ReturnType<typeof parseProcStat>;
    ticks += stat.cpuTicks + stat.reapedChildTicks;
    pending.push(...(children.get(pid) ?? []));
  }
  return ticks / CLOCK_TICKS_PER_SECOND;
}

/** Inodes of the sockets listening on a TCP port, from /proc/net/tcp and tcp6. */
async function listeningInodes(port: number): Promise<Set<string>> {
  const inodes = new Set<string>();
  const wanted = port.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const text = await readFile(table, 'utf8').catch(() => '');
    for (const row of text.split('\n').slice(1)) {
      const columns = row.trim().split(/\s+/);
      // local_address is HEXIP:HEXPORT; state 0A is LISTEN; column 9 is the inode.
      if (columns[1]?.endsWith(`:${wanted}`) && columns[3] === '0A' && columns[9]) inodes.add(columns[9]);
    }
  }
  return inodes;
}

/**
 * The process that listens on a TCP port (e.g. nats-server or ferretdb of a
 * running platform), found by the socket's inode among every process's open
 * files; undefined when no process visible to this user holds it.
 */
export async function pidListeningOn(port: number): Promise<number | undefined> {
  const inodes = await listeningInodes(port);
  if (inodes.size === 0) return undefined;
  const pids = (await readdir('/proc')).filter((entry) => /^\d+$/.test(entry));
  for (const pid of pids) {
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
    for (const fd of fds) {
      const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode && inodes.has(inode)) return Number(pid);
    }
  }
  return undefined;
}
