import { sanitiseFilename } from './source';

/**
 * The file name a Content-Disposition header gives (RFC 6266): `filename*`
 * (RFC 8187, UTF-8 or ISO-8859-1) wins over `filename`. '' when there is none.
 */
export function filenameFromContentDisposition(header: string | undefined): string {
  if (!header) return '';
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (extended) {
    const [, charset = '', encoded = ''] = extended;
    try {
      const bytes = Buffer.from(
        encoded.trim().replace(/%([0-9a-f]{2})/gi, (_all, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        'latin1',
      );
      const decoded = /^utf-?8$/i.test(charset.trim()) ? bytes.toString('utf8') : bytes.toString('latin1');
      const name = sanitiseFilename(decoded);
      if (name) return name;
    } catch {
      // fall through to the plain parameter
    }
  }
  const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header);
  if (quoted) return sanitiseFilename((quoted[1] ?? '').replace(/\\(.)/g, '$1'));
  const token = /filename\s*=\s*([^;\s]+)/i.exec(header);
  return token ? sanitiseFilename(token[1] ?? '') : '';
}
