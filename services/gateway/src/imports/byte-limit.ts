import { Transform, type TransformCallback } from 'node:stream';
import { ErrorCode, ServiceFailure, describeBytes } from '@transmute/contracts';

/** Passes bytes through and fails with PAYLOAD_TOO_LARGE past `limit`, without holding them. */
export class ByteLimit extends Transform {
  bytes = 0;

  constructor(
    private readonly limit: number,
    private readonly failure: (limit: number) => ServiceFailure = tooLarge,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.limit) {
      callback(this.failure(this.limit));
      return;
    }
    callback(null, chunk);
  }
}

export const tooLarge = (limit: number) => new ServiceFailure(ErrorCode.PAYLOAD_TOO_LARGE, `the file is larger than the import ceiling of ${describeBytes(limit)}`);
