import { Readable } from 'node:stream';
import { Subjects, type TaskWork } from '@transmute/contracts';
import type { Storage } from '@transmute/storage';
import type { OrchestratorHarness } from './orchestrator-harness';

/**
 * Plays the import and image-convert pools for many jobs at once:
 * each work message is run (an output written to storage) and its end
 * reported twice, as JetStream redelivery would. Like a real worker with a
 * task this quick, it never reports the start (TRANSMUTE_STARTED_REPORT_DELAY_MS). It records every work
 * message, so a test can tell whether one attempt was dispatched twice.
 */
export class WorkerPoolSim {
  /** `<job>/<task>/<attempt>` -> how many work messages carried it. */
  readonly deliveries = new Map<string, number>();
  private running = true;
  private loops: Promise<void>[] = [];

  constructor(
    private readonly harness: OrchestratorHarness,
    private readonly storage: Storage,
  ) {}

  start(): void {
    this.loops = [Subjects.tasksImport, Subjects.tasksConvert('image')].map((subject) => this.loop(subject));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  /** Work messages that repeated an attempt already delivered. */
  duplicates(): string[] {
    return [...this.deliveries].filter(([, count]) => count > 1).map(([key]) => key);
  }

  private async loop(subject: string): Promise<void> {
    while (this.running) {
      let work: TaskWork | null;
      try {
        work = await this.harness.pullWork(subject);
      } catch {
        // NATS is being restarted: pull again in a moment.
        await new Promise((resolve) => setTimeout(resolve, 200));
        continue;
      }
      if (!work) continue;
      const key = `${work.jobId}/${work.taskName}/${work.attempt}`;
      this.deliveries.set(key, (this.deliveries.get(key) ?? 0) + 1);
      await this.run(subject, work).catch(() => undefined);
    }
  }

  private async run(subject: string, work: TaskWork): Promise<void> {
    const base = { jobId: work.jobId, taskName: work.taskName, attempt: work.attempt };
    let outcome;
    if (subject === Subjects.tasksImport) {
      outcome = { file: { key: work.uploadKey, filename: 'photo.png', size: 9n, format: 'png' } };
    } else {
      const key = `jobs/${work.jobId}/${work.taskName}/photo.jpg`;
      await this.storage.put(key, Readable.from([Buffer.from('jpg bytes')]));
      outcome = { file: { key, filename: 'photo.jpg', size: 9n, format: 'jpg' } };
    }
    const succeeded = { ...base, outcome: { case: 'succeeded' as const, value: outcome } };
    await this.harness.report(succeeded);
    await this.harness.report(succeeded);
  }
}
