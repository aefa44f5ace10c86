import { createHash } from 'node:crypto';
import { join } from 'node:path';

/** Where LibreOffice's OSL layer binds its pipes on Linux (it falls back to /var/tmp only when /tmp is unusable). */
export const OSL_PIPE_DIR = '/tmp';

/**
 * The socket files one soffice binds: its UNO pipe (`--accept=pipe,name=…`)
 * and its single-instance pipe, named after the MD5 of the profile URL in
 * UTF-16 with each byte in unpadded hex, as LibreOffice's
 * desktop/source/app/officeipcthread.cxx builds it. soffice removes both
 * on a clean exit; killed, it leaves them, one more on every restart.
 */
export function officeSocketPaths(profileUrl: string, pipeName: string, uid = process.getuid?.() ?? 0): string[] {
  const digest = createHash('md5').update(Buffer.from(profileUrl, 'utf16le')).digest();
  const hash = [...digest].map((byte) => byte.toString(16)).join('');
  return [join(OSL_PIPE_DIR, `OSL_PIPE_${uid}_${pipeName}`), join(OSL_PIPE_DIR, `OSL_PIPE_${uid}_SingleOfficeIPC_${hash}`)];
}
