import { type LocalPlatform, logTails, startLocalPlatform, type StartLocalPlatformOptions } from './platform';

/** The few jest globals used here, typed locally so the build needs no jest types. */
interface JestHooks {
  beforeAll(fn: () => Promise<void>, timeoutMs?: number): void;
  afterAll(fn: () => Promise<void>, timeoutMs?: number): void;
}

interface CircusTest {
  type: 'test';
  name: string;
  errors: unknown[];
}
interface CircusDescribe {
  type: 'describeBlock';
  children: Array<CircusTest | CircusDescribe>;
}

// Above the platform's own readiness wait (180 s, or TRANSMUTE_READY_TIMEOUT_MS), so a slow start fails with its cause rather than a hook time-out.
const START_TIMEOUT_MS = Math.max(180_000, Number(process.env['TRANSMUTE_READY_TIMEOUT_MS']) || 0) + 60_000;
const STOP_TIMEOUT_MS = 60_000;

/**
 * Whether a test of this file failed so far, read from jest-circus's state
 * (it keeps each test's errors). Undefined when the runner's state cannot be
 * read: the caller then reports as if something failed.
 */
function failedTests(): string[] | undefined {
  const symbol = Object.getOwnPropertySymbols(globalThis).find((candidate) => candidate.description === 'JEST_STATE_SYMBOL');
  const state = symbol ? ((globalThis as Record<symbol, unknown>)[symbol] as { rootDescribeBlock?: CircusDescribe; unhandledErrors?: unknown[] } | undefined) : undefined;
  if (!state?.rootDescribeBlock) return undefined;
  const failed: string[] = [];
  const visit = (block: CircusDescribe): void => {
    for (const child of block.children) {
      if (child.type === 'describeBlock') visit(child);
      else if (child.errors.length > 0) failed.push(child.name);
    }
  };
  visit(state.rootDescribeBlock);
  if ((state.unhandledErrors?.length ?? 0) > 0) failed.push('(unhandled errors)');
  return failed;
}

/**
 * Starts infra + platform once for the test file (beforeAll) and stops it in
 * afterAll. On any failure the run's folder (logs, storage, database) is kept,
 * and its log folder printed with the end of every service log; otherwise it
 * is removed. Returns an accessor for the running platform.
 */
export function platformFixture(options: StartLocalPlatformOptions): () => LocalPlatform {
  const hooks = globalThis as unknown as JestHooks;
  let running: LocalPlatform | undefined;
  let startError: unknown;

  hooks.beforeAll(async () => {
    try {
      running = await startLocalPlatform(options);
    } catch (error) {
      startError = error;
      throw error;
    }
  }, START_TIMEOUT_MS);

  hooks.afterAll(async () => {
    if (!running) return;
    const failed = failedTests();
    const keep = failed === undefined || failed.length > 0;
    if (keep) {
      const why = failed === undefined ? 'test results unknown' : `failed: ${failed.join('; ')}`;
      process.stderr.write(`\n[e2e ${options.name}] ${why}\nservice logs kept in ${running.logDir}\n${await logTails(running.logDir)}\n`);
    }
    await running.stop({ keepFiles: keep });
  }, STOP_TIMEOUT_MS);

  return () => {
    if (!running) throw new Error(`the platform for ${options.name} is not running`, { cause: startError });
    return running;
  };
}
