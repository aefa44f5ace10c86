import { readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Logger } from '@nestjs/common';
import { leftBehindEntries } from '../../../engine/left-behind';
import { OSL_PIPE_DIR, officeSocketPaths } from './office-sockets';

/** The profiles' parent a pool makes when none is configured: `transmute-office-<pid>-<random>` in the temp dir. */
export const profileRootPrefix = () => `transmute-office-${process.pid}-`;
const PROFILE_ROOT = /^transmute-office-(\d+)-/;

/**
 * What LibreOffice pools of killed converters left: their profiles' parent
 * (each profile's single-instance pipe with it) and their UNO pipes, whose
 * names carry the converter's pid. A pool stopped cleanly removes its own;
 * a killed one cannot, and in a pod /tmp is an emptyDir that outlives the
 * container. Once per process, before its first pool makes anything; never rejects.
 */
export async function clearAbandonedOffices(): Promise<string[]> {
  return (sweep ??= sweepNow());
}
let sweep: Promise<string[]> | undefined;
const logger = new Logger('OfficeLeftovers');

async function sweepNow(uid = process.getuid?.() ?? 0): Promise<string[]> {
  const unoPipe = new RegExp(`^OSL_PIPE_${uid}_transmute-office-(\\d+)-`);
  const removed: string[] = [];
  const remove = (path: string) => rm(path, { recursive: true, force: true }).catch((error: unknown) => logger.warn({ err: error, path }, 'could not remove'));
  for (const name of await leftBehindEntries(tmpdir(), PROFILE_ROOT)) {
    const root = join(tmpdir(), name);
    for (const profile of await readdir(root).catch(() => [] as string[])) await remove(officeSocketPaths(pathToFileURL(join(root, profile)).href, '')[1]!);
    await remove(root);
    removed.push(root);
  }
  for (const name of await leftBehindEntries(OSL_PIPE_DIR, unoPipe)) {
    await remove(join(OSL_PIPE_DIR, name));
    removed.push(join(OSL_PIPE_DIR, name));
  }
  if (removed.length > 0) logger.warn({ removed }, 'removed the LibreOffice profiles and pipes of converters that were killed');
  return removed;
}
