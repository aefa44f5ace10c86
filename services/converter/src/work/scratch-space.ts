import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import type { ConverterConfig } from '../config';
import { leftBehindEntries } from '../engine/left-behind';

/** `task-<pid>-<random>`: the pid says whose directory it is, once that process is gone. */
const TASK_DIRECTORY = /^task-(\d+)-/;

/**
 * Each task's own directory under the work directory. A finished task's is
 * removed beside its report, not before it. A killed converter cannot remove
 * its own; on a pod they would stay in the emptyDir, which outlives a
 * container restart, until the volume's size limit evicts the pod. So each
 * start first removes the directories of processes that are gone, and of a
 * predecessor with this process's pid (a restarted container's process
 * usually gets the pid it had before), before any task of its own.
 */
@Injectable()
export class ScratchSpace {
  private readonly logger = new Logger(ScratchSpace.name);
  /** Directories being removed: after the task's result, which does not wait for them. */
  private readonly clearing = new Set<Promise<void>>();

  constructor(@Inject(SERVICE_CONFIG) private readonly config: Pick<ConverterConfig, 'workDir'>) {}

  /** A fresh directory for one task; the work directory is made only when missing (a mkdir per task showed at 6 % of the CPU). */
  async make(): Promise<string> {
    const prefix = join(this.config.workDir, `task-${process.pid}-`);
    try {
      return await mkdtemp(prefix);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      await mkdir(this.config.workDir, { recursive: true });
      return mkdtemp(prefix);
    }
  }

  clearLater(directory: string): void {
    const removal = this.remove(directory).finally(() => this.clearing.delete(removal));
    this.clearing.add(removal);
  }

  /** Resolves once every directory of a finished task is gone; before the process stops. */
  async cleared(): Promise<void> {
    await Promise.all(this.clearing);
  }

  /** Removes what killed predecessors left; only before this process takes its first task. Returns how many; never throws. */
  async clearAbandoned(): Promise<number> {
    const abandoned = await leftBehindEntries(this.config.workDir, TASK_DIRECTORY, (error) =>
      this.logger.warn({ err: error, workDir: this.config.workDir }, 'could not look for abandoned scratch directories'),
    );
    await Promise.all(abandoned.map((name) => this.remove(join(this.config.workDir, name))));
    if (abandoned.length > 0) this.logger.warn({ directories: abandoned.length }, 'removed the scratch directories of converters that were killed');
    return abandoned.length;
  }

  private remove(directory: string): Promise<void> {
    return rm(directory, { recursive: true, force: true }).catch((error: unknown) => this.logger.warn({ err: error, directory }, 'could not remove a task scratch directory'));
  }
}
