import { lstat, readdir, readlink } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ServiceFailure } from '@transmute/contracts';
import type { ArchiveLimits } from './archive-limits.config';

const MIB = 1024 * 1024;
/** Below this, any ratio is fine: small archives of repetitive text compress a lot and harm no one. */
export const RATIO_FREE_BYTES = 16 * MIB;

/** Refuses an archive whose entry names would land outside the extraction folder, or that holds too many entries. */
export function checkEntryNames(names: readonly string[], limits: ArchiveLimits): void {
  if (names.length > limits.maxEntries) {
    throw ServiceFailure.validation(`the archive holds more than ${limits.maxEntries} entries, the limit for one conversion`);
  }
  for (const name of names) {
    const unsafe = name.startsWith('/') || name.startsWith('\\') || /^[A-Za-z]:/.test(name) ? 'an absolute path' : name.split(/[\\/]/).includes('..') ? 'a ".." path' : undefined;
    if (unsafe) throw ServiceFailure.validation(`the archive is refused: entry "${printable(name)}" has ${unsafe} (path traversal)`);
  }
}

/** Why an expansion of `total` bytes from an input of `inputSize` bytes must stop, if it must. */
export function expansionProblem(total: number, inputSize: number, limits: ArchiveLimits): string | undefined {
  if (total > limits.maxExpandedMb * MIB) {
    return `the archive expands past ${limits.maxExpandedMb} MiB, the limit for one conversion (zip bomb?)`;
  }
  if (total > RATIO_FREE_BYTES && total > limits.maxRatio * Math.max(1, inputSize)) {
    return `the archive expands more than ${limits.maxRatio} times its size (zip bomb?)`;
  }
  return undefined;
}

/**
 * Watches a folder while an engine writes into it, and aborts the engine as
 * soon as the bytes written break a limit: header sizes can lie, the bytes on
 * disk cannot.
 */
export function watchExpansion(root: string, inputSize: number, limits: ArchiveLimits, abort: AbortController, intervalMs = 100) {
  let problem: string | undefined;
  let checking = false;
  const check = async () => {
    if (checking || problem) return;
    checking = true;
    try {
      const { bytes, entries } = await measure(root);
      problem =
        expansionProblem(bytes, inputSize, limits) ??
        (entries > limits.maxEntries ? `the archive holds more than ${limits.maxEntries} entries, the limit for one conversion` : undefined);
      if (problem) abort.abort(ServiceFailure.validation(`the archive is refused: ${problem}`));
    } catch {
      // The engine may be moving files; the next tick measures again.
    } finally {
      checking = false;
    }
  };
  const timer = setInterval(() => void check(), intervalMs);
  return {
    /** Stops watching and measures a last time; throws if the final size breaks a limit. */
    async finish(): Promise<void> {
      clearInterval(timer);
      await check();
      if (problem) throw ServiceFailure.validation(`the archive is refused: ${problem}`);
    },
    failure: () => (problem ? ServiceFailure.validation(`the archive is refused: ${problem}`) : undefined),
    stop: () => clearInterval(timer),
  };
}

async function measure(root: string): Promise<{ bytes: number; entries: number }> {
  let bytes = 0;
  let entries = 0;
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      entries += 1;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) bytes += (await lstat(path)).size;
    }
  };
  await walk(root);
  return { bytes, entries };
}

/**
 * After extraction: every entry is a file, a folder, or a link that stays
 * inside the folder. Devices, FIFOs and sockets have no place in a converted
 * archive, and a link out of the folder would copy the converter's own files.
 */
export async function checkExtractedTree(root: string): Promise<void> {
  const base = resolve(root);
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const name = relative(base, path);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isSymbolicLink()) {
        const target = await readlink(path);
        const landing = resolve(dirname(path), target);
        if (isAbsolute(target) || (landing !== base && !landing.startsWith(base + sep))) {
          throw ServiceFailure.validation(`the archive is refused: link "${printable(name)}" points outside the archive (${printable(target)})`);
        }
      } else if (!entry.isFile()) {
        throw ServiceFailure.validation(`the archive is refused: entry "${printable(name)}" is a device, pipe or socket`);
      }
    }
  };
  await walk(base);
}

/** Entry names come from the archive: keep them short and free of control characters in messages. */
function printable(name: string): string {
  // Matching control characters is the point here.
  // eslint-disable-next-line no-control-regex
  const clean = name.replace(/[\u0000-\u001f\u007f]/g, '?');
  return clean.length > 120 ? `${clean.slice(0, 117)}...` : clean;
}
