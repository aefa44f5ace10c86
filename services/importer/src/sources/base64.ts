import { ServiceFailure } from '@transmute/contracts';

const DATA_URI_PREFIX = /^data:[^,]*?(;base64)?,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** Decodes `file` of an import/base64 task; a `data:` URI prefix is accepted and stripped. */
export function decodeBase64File(file: string): Buffer {
  const body = file.replace(DATA_URI_PREFIX, '').replace(/\s+/g, '');
  if (body.length === 0) throw ServiceFailure.validation('file is empty');
  const padded = BASE64.test(body) && body.length % 4 === 0;
  if (!padded && !BASE64URL.test(body)) throw ServiceFailure.validation('file is not valid base64');
  return Buffer.from(body, padded ? 'base64' : 'base64url');
}
