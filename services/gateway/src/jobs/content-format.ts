import { type CreateJobRequest, type ImportRecord, ServiceFailure, formatOfFilename } from '@transmute/contracts';
import { type Storage, sniffFormat, sniffStoredFormat } from '@transmute/storage';

const TEXT_HINT = 'text formats (csv, txt, md, json, html, svg ...) have no signature to recognise them by';

/**
 * import_id with neither input_format nor a file name that tells: the stored
 * bytes say what the import is, so the orchestrator gets a job it can route.
 * A name or an input_format always wins over the content (docs/decisions.md).
 */
export async function resolveImportFormat(request: CreateJobRequest, record: ImportRecord, storage: Storage): Promise<void> {
  // With tasks of its own the request is refused anyway (import_id builds the whole job): say that, not this.
  if (request.inputFormat.trim() || formatOfFilename(record.filename) || Object.keys(request.tasks).length > 0) return;
  if (!(await storage.stat(record.key))) {
    throw ServiceFailure.validation(`import_id ${record.id} has no content yet: send its bytes to /v1/imports/${record.id}/content first, or give input_format`);
  }
  const format = await sniffStoredFormat(storage, record.key);
  if (!format) {
    throw ServiceFailure.validation(
      `the format of import_id ${record.id} cannot be recognised from its content (${TEXT_HINT}): give input_format, or send the bytes with ?filename=<name>.<extension>`,
    );
  }
  request.inputFormat = format;
}

/**
 * import/base64 with neither input_format nor a file name that tells: the
 * decoded bytes say what it is. Content that is not recognised is refused
 * only when a convert reads the file without an input_format of its own (an
 * import exported as it is needs no format).
 */
export async function resolveBase64Format(request: CreateJobRequest, name: string, bytes: Buffer): Promise<void> {
  const spec = request.tasks[name];
  if (!spec || spec.inputFormat.trim() || formatOfFilename(spec.filename)) return;
  const format = await sniffFormat(bytes);
  if (format) {
    spec.inputFormat = format;
    return;
  }
  const readers = Object.entries(request.tasks).filter(([, task]) => task.operation === 'convert' && task.input.includes(name) && !task.inputFormat.trim());
  if (readers.length > 0) {
    throw ServiceFailure.validation(
      `task ${name}: the format of the file cannot be recognised from its content (${TEXT_HINT}): give it a filename with an extension, or input_format`,
    );
  }
}
