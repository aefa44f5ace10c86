import { type CreateJobRequest, type ImportRecord, ServiceFailure } from '@transmute/contracts';
import { type Storage, sniffFormat, sniffStoredFormat } from '@transmute/storage';

const FORMAT = /^[a-z0-9]{1,16}$/;

/** The lowercase extension of a client's file name, '' when it has none (the orchestrator's rule for names). */
export function formatOfName(filename: string): string {
  const dot = filename.lastIndexOf('.');
  if (dot <= 0) return '';
  const extension = filename.slice(dot + 1).toLowerCase();
  return FORMAT.test(extension) ? extension : '';
}

const TEXT_HINT = 'text formats (csv, txt, md, json, html, svg ...) have no signature to recognise them by';

/**
 * import_id with neither input_format nor a file name that tells: the stored
 * bytes say what the import is, so the orchestrator gets a job it can route.
 * A name or an input_format always wins over the content (docs/decisions.md).
 */
export async function resolveImportFormat(request: CreateJobRequest, record: ImportRecord, storage: Storage): Promise<void> {
  if (request.inputFormat.trim() || formatOfName(record.filename)) return;
  if (!(await storage.stat(record.key))) {
    throw ServiceFailure.validation(
      `import ${record.id} has no content yet: send its bytes to /v1/imports/${record.id}/content first, or give input_format`,
    );
  }
  const format = await sniffStoredFormat(storage, record.key);
  if (!format) {
    throw ServiceFailure.validation(
      `the format of import ${record.id} cannot be recognised from its content (${TEXT_HINT}): give input_format, or send the bytes with ?filename=<name>.<extension>`,
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
  if (!spec || spec.inputFormat.trim() || formatOfName(spec.filename)) return;
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
