import { Injectable } from '@nestjs/common';

/**
 * Runs the state changes of one job one at a time in this process.
 *
 * The conditional updates stay (they are what keeps replicas apart on
 * MongoDB), but FerretDB's findAndModify is a read then a write, not one
 * atomic step: two outcomes of the same job handled at once (a task's
 * `started` and `succeeded`) could both match the old state, and the later
 * write would undo the earlier. Serialising per job removes that race.
 */
@Injectable()
export class JobLocks {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(jobId: string, action: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(jobId) ?? Promise.resolve();
    const current = previous.then(action, action);
    const tail = current.catch(() => undefined);
    this.tails.set(jobId, tail);
    void tail.then(() => {
      if (this.tails.get(jobId) === tail) this.tails.delete(jobId);
    });
    return current;
  }
}
