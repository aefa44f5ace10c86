import { readFile, readdir } from 'node:fs/promises';

/** What one process holds, from /proc (Linux). */
export interface ProcessUsage {
  rssKb: number;
  openFiles: number;
}

/** VmRSS from /proc/<pid>/status and the entries of /proc/<pid>/fd; undefined when the process is gone. */
export async function processUsage(pid: number): Promise<ProcessUsage | undefined> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const rss = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
    const fds = await readdir(`/proc/${pid}/fd`);
    return { rssKb: Number(rss?.[1] ?? 0), openFiles: fds.length };
  } catch {
    return undefined;
  }
}

export interface GrowthBound {
  /** RSS may grow by this share of its start value... */
  rssGrowthRatio: number;
  /** ...plus this many MiB (small processes move by a few MiB on their own). */
  rssSlackMb: number;
  /** Open files may grow by this many. */
  openFilesSlack: number;
}

export interface UsageVerdict {
  service: string;
  start: ProcessUsage;
  end: ProcessUsage;
  rssLimitKb: number;
  openFilesLimit: number;
  ok: boolean;
}

export function judgeGrowth(service: string, start: ProcessUsage, end: ProcessUsage, bound: GrowthBound): UsageVerdict {
  const rssLimitKb = Math.round(start.rssKb * (1 + bound.rssGrowthRatio) + bound.rssSlackMb * 1024);
  const openFilesLimit = start.openFiles + bound.openFilesSlack;
  return { service, start, end, rssLimitKb, openFilesLimit, ok: end.rssKb <= rssLimitKb && end.openFiles <= openFilesLimit };
}

export function formatVerdicts(verdicts: readonly UsageVerdict[]): string {
  const mb = (kb: number) => `${(kb / 1024).toFixed(1)} MiB`;
  const header = `${'service'.padEnd(22)} ${'RSS start'.padStart(11)} ${'RSS end'.padStart(11)} ${'limit'.padStart(11)}   ${'fds start'.padStart(9)} ${'fds end'.padStart(8)} ${'limit'.padStart(6)}`;
  return [
    header,
    ...verdicts.map(
      (verdict) =>
        `${verdict.service.padEnd(22)} ${mb(verdict.start.rssKb).padStart(11)} ${mb(verdict.end.rssKb).padStart(11)} ${mb(verdict.rssLimitKb).padStart(11)}   ${String(verdict.start.openFiles).padStart(9)} ${String(verdict.end.openFiles).padStart(8)} ${String(verdict.openFilesLimit).padStart(6)}${verdict.ok ? '' : '   GREW PAST THE BOUND'}`,
    ),
  ].join('\n');
}
