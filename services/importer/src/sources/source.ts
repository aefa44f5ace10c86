import type { TaskContext } from '@transmute/messaging';
import type { TaskWork } from '@transmute/contracts';
import { fallbackImportFilename } from '@transmute/storage';

export interface ImportedFile {
  key: string;
  filename: string;
  size: number;
}

/** One way of bringing a source in; `operation` is the task operation it serves. */
export interface ImportSource {
  readonly operation: string;
  import(work: TaskWork, context: TaskContext): Promise<ImportedFile>;
}

/** Injection token of the list of every source. */
export const IMPORT_SOURCES = Symbol('IMPORT_SOURCES');

/** Name of an imported file when the client gave none: the task name with the source's format. */
export function fallbackFilename(work: TaskWork): string {
  return fallbackImportFilename(work.taskName, work.inputFormat);
}

/** The last path segment of a URL path, key or remote path, decoded; '' when there is none. */
export function baseName(path: string): string {
  const last = path.split('/').filter(Boolean).pop() ?? '';
  try {
    return sanitiseFilename(decodeURIComponent(last));
  } catch {
    return sanitiseFilename(last);
  }
}

/** A file name safe to show and store: no directories, no control characters, at most 255 characters. */
export function sanitiseFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return clean === '.' || clean === '..' ? '' : clean.slice(0, 255);
}
