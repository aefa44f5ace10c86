/*
 * The one format-name rule. Spec "Limits": a format name is 1 to 16 letters
 * or digits. Clients may write it in any case; everything past the edge (the
 * catalogue, tasks, storage) holds it lowercase.
 */

export const FORMAT_NAME_PATTERN = /^[A-Za-z0-9]{1,16}$/;

export function isFormatName(value: string): boolean {
  return FORMAT_NAME_PATTERN.test(value);
}

/** The stored form of a format name a client gave. */
export function normaliseFormatName(value: string): string {
  return value.trim().toLowerCase();
}

/** The format a file name's extension names, lowercase; '' when it has none that is a format name. */
export function formatOfFilename(filename: string): string {
  const dot = filename.lastIndexOf('.');
  if (dot <= 0) return '';
  const extension = filename.slice(dot + 1);
  return isFormatName(extension) ? normaliseFormatName(extension) : '';
}
