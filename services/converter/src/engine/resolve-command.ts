import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { delimiter, join } from 'node:path';

const cache = new Map<string, string | null>();

/** The absolute path of an executable, looked up on PATH like execvp would; null when there is none. */
export async function resolveCommand(command: string): Promise<string | null> {
  if (command.includes('/')) return (await isExecutable(command)) ? command : null;
  const known = cache.get(command);
  if (known !== undefined) return known;
  let found: string | null = null;
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, command);
    if (await isExecutable(candidate)) {
      found = candidate;
      break;
    }
  }
  // Only hits are cached: an engine installed while the converter runs is found on the next call.
  if (found) cache.set(command, found);
  return found;
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
