/**
 * A report made only if the work it announces is still going after a delay.
 * With no delay it is made at once, and a failure to make it is the caller's
 * (`dueNow` throws). A delayed one is made while the work runs; `settle`
 * waits for it, so that the work's own report comes after it, and drops a
 * failure: the work's own report supersedes it.
 */
export class DelayedReport {
  private timer?: NodeJS.Timeout;
  private made?: Promise<void>;

  constructor(
    private readonly delayMs: number,
    private readonly make: () => Promise<void>,
  ) {
    if (delayMs > 0) this.timer = setTimeout(() => this.fire(), delayMs);
  }

  /** Makes the report now when there is no delay. */
  async dueNow(): Promise<void> {
    if (this.delayMs === 0) await this.make();
  }

  /** The work is over: a report not yet due is dropped; one under way is waited for. */
  async settle(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.made;
  }

  private fire(): void {
    this.timer = undefined;
    this.made = this.make().catch(() => undefined);
  }
}
