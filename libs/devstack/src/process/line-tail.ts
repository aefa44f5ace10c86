/**
 * Keeps the last `capacity` lines written to it, so a failure message can show
 * what a process said just before it died or hung, without holding the whole
 * log in memory.
 */
export class LineTail {
  private readonly lines: string[] = [];
  private partial = '';

  constructor(private readonly capacity: number) {}

  push(chunk: string): void {
    const parts = (this.partial + chunk).split('\n');
    this.partial = parts.pop() ?? '';
    for (const line of parts) this.append(line);
  }

  /** The last `count` lines, the unterminated one included. */
  last(count: number = this.capacity): string[] {
    const all = this.partial === '' ? this.lines : [...this.lines, this.partial];
    return all.slice(-count);
  }

  private append(line: string): void {
    this.lines.push(line);
    if (this.lines.length > this.capacity) this.lines.shift();
  }
}
