import { Inject, Injectable } from '@nestjs/common';
import { create, toJson } from '@bufbuild/protobuf';
import { TaskResultSchema } from '@transmute/contracts';
import { STORAGE, type Storage, fallbackImportFilename, importedFileFormat } from '@transmute/storage';
import { moveTask } from '../state/transitions';
import type { LiveJob, LiveTask, StoredOutput } from '../store/live-job';

/** Imports whose bytes are in storage before the job starts: the client's signed upload, a base64 file the gateway stored at creation. */
const STORED_IMPORTS = ['import/upload', 'import/base64'];

/** What a finished import shows clients: the same empty result an importer's success leaves. */
const IMPORTED_RESULT = toJson(TaskResultSchema, create(TaskResultSchema, {})) as Record<string, unknown>;

/**
 * Finds, when a job starts, the imports that have nothing left to fetch,
 * and describes their files as an importer would (name, size, format), so
 * the start finishes them through the `receive` move instead of a round
 * trip through the importer's queue.
 */
@Injectable()
export class StoredImports {
  constructor(@Inject(STORAGE) private readonly storage: Storage) {}

  /** Each upload and base64 import of the job, with its stored file; null when the store has no file for it. */
  async describe(job: LiveJob): Promise<Map<string, StoredOutput | null>> {
    const files = new Map<string, StoredOutput | null>();
    for (const task of Object.values(job.tasks)) {
      if (STORED_IMPORTS.includes(task.operation)) files.set(task.name, await this.storedFile(task));
    }
    return files;
  }

  private async storedFile(task: LiveTask): Promise<StoredOutput | null> {
    const key = task.operation === 'import/upload' ? task.uploadKey : stringField(task.spec, 'storedKey');
    const stored = key ? await this.storage.stat(key) : null;
    if (!stored) return null;
    const filename = stringField(task.spec, 'filename') || fallbackImportFilename(task.name, task.inputFormat);
    return { key, filename, size: stored.size, format: await importedFileFormat({ inputFormat: task.inputFormat, filename, key }, this.storage) };
  }
}

/** The job with each stored import finished (the `receive` move); tasks the table will not move stay as they are. */
export function receiveStoredImports(job: LiveJob, files: ReadonlyMap<string, StoredOutput | null>, now: number): LiveJob {
  const tasks = { ...job.tasks };
  for (const [name, output] of files) {
    const task = tasks[name];
    const received = task && output ? moveTask(task, 'receive', { now, output, result: IMPORTED_RESULT }) : null;
    if (received) tasks[name] = received;
  }
  return { ...job, tasks };
}

function stringField(spec: Record<string, unknown> | null, field: string): string {
  const value = spec?.[field];
  return typeof value === 'string' ? value : '';
}
