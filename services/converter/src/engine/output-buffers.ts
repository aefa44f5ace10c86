import { StringDecoder } from 'node:string_decoder';

/** Keeps the last `limit` bytes of a stream: the end of an engine's output is what explains a failure. */
export class TailBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  private dropped = false;

  constructor(private readonly limit: number) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size > this.limit && this.chunks.length > 1) {
      this.size -= this.chunks.shift()!.length;
      this.dropped = true;
    }
  }

  text(): string {
    const all = Buffer.concat(this.chunks);
    const kept = all.length > this.limit ? all.subarray(all.length - this.limit) : all;
    return (this.dropped || kept !== all ? '…' : '') + kept.toString('utf8');
  }
}

/** Splits a byte stream into lines at `\n`, `\r\n` or a lone `\r`, decoding UTF-8 across chunk edges. */
export class LineSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private pending = '';

  constructor(private readonly onLine: ((line: string) => void) | undefined) {}

  push(chunk: Buffer): void {
    if (!this.onLine) return;
    const parts = (this.pending + this.decoder.write(chunk)).split(/\r\n|\r|\n/);
    this.pending = parts.pop() ?? '';
    for (const line of parts) this.emit(line);
  }

  end(): void {
    if (!this.onLine) return;
    const rest = this.pending + this.decoder.end();
    this.pending = '';
    if (rest) this.emit(rest);
  }

  private emit(line: string): void {
    // A `\r\n` split across two chunks would otherwise show up as an empty line.
    if (!line) return;
    try {
      this.onLine!(line);
    } catch {
      // A faulty progress parser must not break the conversion.
    }
  }
}
