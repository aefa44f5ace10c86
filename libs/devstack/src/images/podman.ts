import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ManagedProcess, type OutputSink } from '../process/managed-process';

const execFileAsync = promisify(execFile);

/** The container engine: rootful podman (Debian's), or whatever PODMAN names. */
export function podmanCommand(env: NodeJS.ProcessEnv = process.env): string {
  return env['PODMAN'] ?? 'podman';
}

/**
 * Container limits below this machine's hard limits (20000 open files, 96365
 * processes): podman's defaults ask for more and runc then fails with
 * "setrlimit ... operation not permitted". containerd's default spec asks for
 * 1024 open files too.
 */
export const CONTAINER_ULIMITS = ['--ulimit', 'nofile=1024:1024', '--ulimit', 'nproc=4096:4096'] as const;

/** Runs podman to the end, its output in a log file (and a tail kept for errors). */
export async function runPodman(args: string[], name: string, output: OutputSink): Promise<{ ok: boolean; tail: (lines: number) => string }> {
  const managed = new ManagedProcess({ name, command: podmanCommand(), args, output });
  const { code } = await managed.exited;
  return { ok: code === 0, tail: (lines) => managed.outputTail(lines) };
}

/** podman's stdout, trimmed; throws with its stderr when it fails. */
export async function podmanOutput(args: string[]): Promise<string> {
  try {
    const { stdout } = await execFileAsync(podmanCommand(), args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    return stdout.trim();
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(`podman ${args.join(' ')} failed${stderr ? `: ${stderr}` : ''}`, { cause: error });
  }
}

/** stdout and stderr together, as `podman logs` replays a container's two streams onto its own. */
export async function podmanCombinedOutput(args: string[]): Promise<string> {
  try {
    const { stdout, stderr } = await execFileAsync(podmanCommand(), args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    return `${stdout}${stderr}`.trim();
  } catch (error) {
    throw new Error(`podman ${args.join(' ')} failed: ${(error as Error).message}`, { cause: error });
  }
}

/** Fails with what to install when podman is missing. */
export async function requirePodman(): Promise<string> {
  try {
    return await podmanOutput(['--version']);
  } catch {
    throw new Error(`${podmanCommand()} not found: \`libs/devstack/bin/install-tools.sh images\` installs it (make images runs it)`);
  }
}

/** The image's size in local storage (uncompressed, all its layers), in bytes. */
export async function imageSize(ref: string): Promise<number> {
  return Number(await podmanOutput(['image', 'inspect', '--format', '{{.Size}}', ref]));
}
