import { type TaskWork, formatOfFilename } from '@transmute/contracts';
import { type Storage, sniffStoredFormat } from '@transmute/storage';
import type { ImportedFile } from './sources/source';

/**
 * The format an import reports in its StoredFile: the client's input_format,
 * else the extension of the name the source gave (Content-Disposition, URL,
 * key, path); only when neither tells, the stored bytes'. A name and content
 * that disagree keep the name (docs/decisions.md, "Formats recognised by
 * content"). '' when nothing tells (text formats have no signature).
 */
export async function reportedFormat(work: TaskWork, file: ImportedFile, storage: Storage): Promise<string> {
  return work.inputFormat || formatOfFilename(file.filename) || (await sniffStoredFormat(storage, file.key));
}
