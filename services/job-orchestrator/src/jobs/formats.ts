import { formatOfFilename } from '@transmute/contracts';

/** The format a file name, URL or storage path names by its extension, lowercase; '' when it names none. */
export function formatFromName(name: string): string {
  if (!name) return '';
  let path = name;
  try {
    path = new URL(name).pathname;
  } catch {
    // not a URL: a file name or a key
  }
  return formatOfFilename(decodeURIComponentSafe(path.split('/').pop() ?? ''));
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
