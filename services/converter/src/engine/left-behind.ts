import { readdir } from 'node:fs/promises';

/**
 * Whether files named after process `pid` were left behind by a process that
 * is gone: it no longer runs, or it is this one's pid, which a predecessor in
 * a restarted container usually had too (under tini, node is always its first
 * child). Ask only before this process has made any of its own.
 */
export function leftBehind(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // EPERM: running, under another user.
    return (error as NodeJS.ErrnoException).code !== 'EPERM';
  }
}

/**
 * The names in `directory` whose owner, the pid `pattern` captures first,
 * was left behind (above); none when the directory cannot be read.
 */
export async function leftBehindEntries(directory: string, pattern: RegExp, onUnreadable?: (error: NodeJS.ErrnoException) => void): Promise<string[]> {
  const names = await readdir(directory).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') onUnreadable?.(error);
    return [] as string[];
  });
  return names.filter((name) => leftBehind(Number(pattern.exec(name)?.[1])));
}
