#!/usr/bin/env node
/**
 * `make test`: the non-jest checks given with --check, then jest, and at the
 * very end one plain line CI reads, `N passed, N failed`, counted from jest's
 * JSON results (plus one per check). The exit status is jest's, or 1 when a
 * check failed.
 *
 *   node libs/devstack/dist/cli/run-tests.js [--check '<name>=<command>']... [-- <jest args>]
 */
import { spawn } from 'node:child_process';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from '../repo-root';
import { runUntilResults } from './run-until-results';
import { type CheckOutcome, type JestResults, summaryLine } from './test-summary';

/** How long jest may take to exit after writing its results before its processes are killed. */
const JEST_EXIT_GRACE_MS = 60_000;

function run(command: string, args: string[], options: { shell?: boolean } = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repoRoot(), stdio: 'inherit', shell: options.shell ?? false });
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({ options: { check: { type: 'string', multiple: true, default: [] } }, allowPositionals: true });
  const checks: CheckOutcome[] = [];
  for (const spec of values.check) {
    const at = spec.indexOf('=');
    if (at <= 0) throw new Error(`--check expects <name>=<command>, got ${JSON.stringify(spec)}`);
    const name = spec.slice(0, at);
    console.log(`\n== ${name}: ${spec.slice(at + 1)}`);
    const code = await run(spec.slice(at + 1), [], { shell: true });
    checks.push({ name, passed: code === 0 });
  }

  const resultsDir = join(repoRoot(), 'test-results');
  const resultsFile = join(resultsDir, 'jest.json');
  await mkdir(resultsDir, { recursive: true });
  await rm(resultsFile, { force: true });
  // Names what holds jest open, should a suite leak a handle. Last, since jest's
  // array options take every argument that follows them.
  const reporters = ['--reporters=default', `--reporters=${join(__dirname, '../jest/open-handles-reporter.js')}`];
  const jest = await runUntilResults('pnpm', ['exec', 'jest', '--json', '--outputFile', resultsFile, ...positionals, ...reporters], {
    cwd: repoRoot(),
    resultsFile,
    graceMs: JEST_EXIT_GRACE_MS,
  });
  if (jest.hung) {
    console.log(
      `\njest did not exit ${JEST_EXIT_GRACE_MS / 1000} s after writing its results, so it was killed: a test left a handle open (named above by the open-handles reporter)`,
    );
    checks.push({ name: 'jest-exit', passed: false });
  }
  let results: JestResults | undefined;
  try {
    results = JSON.parse(await readFile(resultsFile, 'utf8')) as JestResults;
  } catch {
    // jest died before writing its results: summaryLine counts that as a failure.
  }
  const failedChecks = checks.filter((check) => !check.passed).map((check) => check.name);
  if (failedChecks.length > 0) console.log(`\nfailed checks: ${failedChecks.join(', ')}`);
  console.log(`\n${summaryLine(results, checks)}`);
  if (jest.code !== 0 && !jest.hung) return jest.code;
  return failedChecks.length > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    console.log('0 passed, 1 failed');
    process.exit(1);
  },
);
