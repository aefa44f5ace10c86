import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runUntilResults } from './run-until-results';

/*
 * Real node processes stand in for jest: one that exits after its results,
 * one that writes them and then stays up with a child of its own, as a jest
 * held open by a leaked handle does.
 */

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'run-until-results-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const node = (script: string, resultsFile: string, graceMs: number) => runUntilResults(process.execPath, ['-e', script, resultsFile], { cwd: dir, resultsFile, graceMs });

/** Running, not merely a zombie waiting for whoever inherited it to reap it. */
const isRunning = async (pid: number) => {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  return stat !== undefined && stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
};

describe('runUntilResults', () => {
  it("passes the command's exit code through when it exits by itself", async () => {
    const resultsFile = join(dir, 'results.json');
    await expect(node(`require('fs').writeFileSync(process.argv[1], '{}'); process.exitCode = 3`, resultsFile, 5_000)).resolves.toEqual({ code: 3, hung: false });
  });

  it('waits for a command that has not written its results, however long it runs', async () => {
    const resultsFile = join(dir, 'results.json');
    const outcome = await node(`setTimeout(() => require('fs').writeFileSync(process.argv[1], '{}'), 1500)`, resultsFile, 200);
    expect(outcome).toEqual({ code: 0, hung: false });
  });

  it('kills the whole process group once the grace after the results has passed', async () => {
    const resultsFile = join(dir, 'results.json');
    const childPidFile = join(dir, 'child.pid');
    const script = [
      `const { spawn } = require('child_process'); const fs = require('fs');`,
      `const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });`,
      `fs.writeFileSync(${JSON.stringify(childPidFile)}, String(child.pid));`,
      `fs.writeFileSync(process.argv[1], '{}');`,
      `setInterval(() => {}, 1000);`,
    ].join('\n');
    const started = Date.now();
    const outcome = await node(script, resultsFile, 1_000);
    expect(outcome.hung).toBe(true);
    expect(Date.now() - started).toBeLessThan(10_000);
    const childPid = Number(await readFile(childPidFile, 'utf8'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await expect(isRunning(childPid)).resolves.toBe(false);
  });
});
