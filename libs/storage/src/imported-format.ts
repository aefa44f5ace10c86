import { formatOfFilename } from '@transmute/contracts';
import { sniffStoredFormat } from './format-sniff';
import type { Storage } from './storage';

/** An imported file as its import task describes it: the format the client declared, the name it came with, where it is stored. */
export interface ImportedFileDescription {
  inputFormat: string;
  filename: string;
  key: string;
}

/**
 * The format an import reports for its file: the client's input_format,
 * else the extension of the name the source gave (Content-Disposition, URL,
 * key, path); only when neither tells, the stored bytes'. A name and content
 * that disagree keep the name (docs/decisions.md, "Formats recognised by
 * content"). '' when nothing tells (text formats have no signature). Shared
 * by the importer and by the orchestrator, which finishes imports whose
 * bytes are already stored without a worker.
 */
export async function importedFileFormat(file: ImportedFileDescription, storage: Storage): Promise<string> {
  return file.inputFormat || formatOfFilename(file.filename) || (await sniffStoredFormat(storage, file.key));
}

/** Name of an imported file when the client gave none: the task name with the declared format. */
export function fallbackImportFilename(taskName: string, inputFormat: string): string {
  return inputFormat ? `${taskName}.${inputFormat}` : taskName;
}
