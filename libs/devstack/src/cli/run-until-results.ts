import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';

export interface RunOutcome {
  code: number;
  /** The command wrote its results and then did not exit within the grace: its process group was killed. */
  hung: boolean;
}

const POLL_MS = 500;

/**
 * Runs a command that writes a results file just before it exits (jest with
 * --outputFile), in its own process group. A command still running `graceMs`
 * after the file appeared is held open by something it leaked: the whole group
 * is killed, so a leaked handle costs a minute instead of the CI time limit.
 * SIGINT and SIGTERM reach the group too, as they would without a group of its own.
 */
export function runUntilResults(command: string, args: string[], options: { cwd: string; resultsFile: string; graceMs: number }): Promise<RunOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, stdio: 'inherit', detached: true });
    const killGroup = (signal: NodeJS.Signals) => {
      if (child.pid !== undefined && child.exitCode === null) {
        try {
          process.kill(-child.pid, signal);
        } catch {
          // The group is already gone.
        }
      }
    };
    const forward = (signal: NodeJS.Signals) => killGroup(signal);
    process.on('SIGINT', forward).on('SIGTERM', forward);

    let hung = false;
    let settled = false;
    let deadline: NodeJS.Timeout | undefined;
    const poll = setInterval(() => {
      stat(options.resultsFile).then(
        () => {
          clearInterval(poll);
          if (settled) return;
          deadline = setTimeout(() => {
            hung = true;
            killGroup('SIGKILL');
          }, options.graceMs);
        },
        () => undefined,
      );
    }, POLL_MS);

    const settle = () => {
      settled = true;
      clearInterval(poll);
      clearTimeout(deadline);
      process.off('SIGINT', forward).off('SIGTERM', forward);
    };
    child.once('error', (error) => {
      settle();
      reject(error);
    });
    child.once('exit', (code, signal) => {
      settle();
      resolve({ code: code ?? (signal ? 128 : 1), hung });
    });
  });
}
