import { Transform, type TransformCallback } from 'node:stream';
import { ErrorCode, ServiceFailure, describeBytes } from '@transmute/contracts';

/** The one error every import gives past its ceiling: url, s3, sftp and googlecloud alike (413 class, permanent). */
export function importCeilingExceeded(what: string, maxBytes: number): ServiceFailure {
  return new ServiceFailure(ErrorCode.PAYLOAD_TOO_LARGE, `${what} is larger than the import ceiling of ${describeBytes(maxBytes)}`);
}

/** Fails the stream once more than `maxBytes` passed; counted on the bytes, not on a header. */
export function byteCeiling(maxBytes: number, what: string): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      seen += chunk.length;
      if (seen > maxBytes) {
        callback(importCeilingExceeded(what, maxBytes));
        return;
      }
      callback(null, chunk);
    },
  });
}

/**
 * `source` through a byte ceiling, with errors going both ways: `.pipe()` alone
 * would leave the reader waiting forever when the source fails.
 */
export function withByteCeiling(source: NodeJS.ReadableStream & { destroy(error?: Error): unknown }, maxBytes: number, what: string): Transform {
  const ceiling = byteCeiling(maxBytes, what);
  source.on('error', (error: Error) => ceiling.destroy(error));
  ceiling.once('close', () => source.destroy());
  return source.pipe(ceiling);
}
