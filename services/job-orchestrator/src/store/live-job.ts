import type { JobStatus, TaskStatus } from '@transmute/contracts';

export interface StoredOutput {
  key: string;
  filename: string;
  size: number;
  format: string;
}

/**
 * One task of a live job. Times are epoch milliseconds: the record travels
 * as JSON in a JetStream KV value.
 */
export interface LiveTask {
  name: string;
  operation: string;
  status: TaskStatus;
  dependsOn: string[];
  /** The client's task in proto3 JSON, credentials sealed; erased once the job ends. */
  spec: Record<string, unknown> | null;
  inputFormat: string;
  outputFormat: string;
  /** Converter family that owns the pair (convert tasks); '' until the input format is known. */
  family: string;
  uploadKey: string;
  attempt: number;
  /** 0-100 while a long conversion reports it. */
  progress: number | null;
  /**
   * When this attempt's work message was confirmed in the stream; null between
   * the claim and the publish (a crash there is healed by publishing the same
   * attempt again, which JetStream de-duplicates if it did get through).
   */
  publishedAt: number | null;
  /** Past this, the reconciler dispatches the task again. */
  deadlineAt: number | null;
  /**
   * A claimed convert waiting for a slot of its account's plan allowance (in
   * the account's line, docs/decisions.md "Fair scheduling"); absent or null
   * otherwise. Without a deadline meanwhile: waiting is not a fault.
   */
  parkedAt?: number | null;
  output: StoredOutput | null;
  /** Public result in proto3 JSON (TaskResult). */
  result: Record<string, unknown> | null;
  createdAt: number;
  updatedAt: number;
}

/** A job and all its tasks: one key, so a transition is one compare-and-set. */
export interface LiveJob {
  id: string;
  accountId: string;
  tag: string;
  status: JobStatus;
  webhookUrl: string;
  error: string;
  /** Task names in the order the client wrote them. */
  taskOrder: string[];
  /** How many of the account's converts may run at once (its plan allowance when the job was created); absent: no cap. */
  convertAllowance?: number;
  tasks: Record<string, LiveTask>;
  createdAt: number;
  updatedAt: number;
  startedAt: number | null;
  endedAt: number | null;
  /**
   * Absent while the job runs; false from its terminal transition until what
   * follows the end (event, webhooks, history, erasing credentials) is done.
   */
  finalized?: boolean;
}

export function orderedTasks(job: Pick<LiveJob, 'taskOrder' | 'tasks'>): LiveTask[] {
  return job.taskOrder.map((name) => job.tasks[name]).filter((task): task is LiveTask => task !== undefined);
}
