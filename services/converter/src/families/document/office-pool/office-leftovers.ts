import { readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Logger } from '@nestjs/common';
import { leftBehind } from '../../../engine/left-behind';
import { OSL_PIPE_DIR, officeSocketPaths } from './office-sockets';

/** The profiles' parent a pool makes when none is configured: `transmute-office-<pid>-<random>` in the temp dir. */
export const profileRootPrefix = () => `transmute-office-${process.pid}-`;
const PROFILE_ROOT = /^transmute-office-(\d+)-/;

const ownerOf = (pattern: RegExp, name: string): number => Number(pattern.exec(name)?.[1]);

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
  const entries = async (directory: string) => readdir(directory).catch(() => [] as string[]);
  for (const name of await entries(tmpdir())) {
    if (!leftBehind(ownerOf(PROFILE_ROOT, name))) continue;
    const root = join(tmpdir(), name);
    for (const profile of await entries(root)) await remove(officeSocketPaths(pathToFileURL(join(root, profile)).href, '')[1]!);
    await remove(root);
    removed.push(root);
  }
  for (const name of await entries(OSL_PIPE_DIR)) {
    if (!leftBehind(ownerOf(unoPipe, name))) continue;
    await remove(join(OSL_PIPE_DIR, name));
    removed.push(join(OSL_PIPE_DIR, name));
  }
  if (removed.length > 0) logger.warn({ removed }, 'removed the LibreOffice profiles and pipes of converters that were killed');
  return removed;
}
