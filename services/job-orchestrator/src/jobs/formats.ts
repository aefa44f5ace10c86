const FORMAT = /^[a-z0-9]{1,16}$/;

/** Lowercase extension of a file name, URL or storage path, or '' when it has none worth trusting. */
export function formatFromName(name: string): string {
  if (!name) return '';
  let path = name;
  try {
    path = new URL(name).pathname;
  } catch {
    // not a URL: a file name or a key
  }
  const base = decodeURIComponentSafe(path.split('/').pop() ?? '');
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return '';
  const extension = base.slice(dot + 1).toLowerCase();
  return FORMAT.test(extension) ? extension : '';
}

export function normaliseFormat(format: string): string {
  return format.trim().toLowerCase();
}

export function isValidFormat(format: string): boolean {
  return FORMAT.test(format);
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
