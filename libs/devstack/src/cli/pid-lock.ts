import { rmSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Refuses a second `make up` on the same state folder: two nats-servers or
 * FerretDBs on one data directory would corrupt it. A lock left by a process
 * that no longer runs is taken over. The lock goes when this process exits,
 * however it exits (short of SIGKILL), or earlier through the returned release.
 */
export async function acquirePidLock(path: string): Promise<() => void> {
  const holder = await readHolder(path);
  if (holder !== undefined && holder !== process.pid && isAlive(holder)) {
    throw new Error(`another \`make up\` (pid ${holder}) already uses ${dirname(path)}; stop it first`);
  }
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${process.pid}\n`);
  const release = (): void => {
    process.off('exit', release);
    rmSync(path, { force: true });
  };
  process.on('exit', release);
  return release;
}

async function readHolder(path: string): Promise<number | undefined> {
  try {
    const pid = Number.parseInt(await readFile(path, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
