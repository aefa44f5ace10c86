/**
 * One long-lived engine process as the supervisor sees it. The supervisor owns
 * time limits, restarts and queueing; a process only starts, runs one job at
 * a time, and dies when killed.
 */
export interface EngineProcess<Job> {
  /** True from a successful start until the process exits or is killed. */
  readonly isAlive: boolean;
  /** The OS process id while it runs (tests, logs). */
  readonly pid: number | undefined;
  /** Starts the process and resolves once it is ready for work; rejects (and leaves nothing running) otherwise. */
  start(): Promise<void>;
  /**
   * Runs one job. Rejects with a non-retryable failure when the engine refused
   * the input, and with a retryable one when the process died meanwhile.
   */
  run(job: Job, signal: AbortSignal): Promise<void>;
  /** SIGKILLs the process and everything it spawned; `isAlive` is false at once. */
  kill(): void;
  /** Kills the process and resolves once it has exited (at once when it is not running); a start still preparing then spawns nothing. */
  stop(): Promise<void>;
}

/** Told to a process when it was started: call it when the process dies without being killed (crash, OOM kill). */
export interface EngineProcessEvents {
  onUnexpectedExit(): void;
}

export type EngineProcessFactory<Job> = (slot: number, events: EngineProcessEvents) => EngineProcess<Job>;
