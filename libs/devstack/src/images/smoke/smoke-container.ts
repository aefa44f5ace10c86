import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONTAINER_ULIMITS, podmanCombinedOutput, podmanOutput } from '../podman';

/** The user every Transmute pod runs as (the chart's securityContext). */
export const CHART_USER = '10001:10001';

export interface SmokeRunOptions {
  ref: string;
  /** Container name prefix; a random suffix keeps parallel runs apart. */
  name: string;
  env?: Record<string, string>;
  /** Host directory mounted read-write at /data (a PersistentVolume stand-in). */
  dataDir?: string;
  args?: string[];
  entrypoint?: string;
}

/**
 * One container started the way the chart runs its pod: the chart's user,
 * read-only root file system with a tmpfs at /tmp (the chart's emptyDir), no
 * capabilities, no privilege escalation, limits below the machine's. Host
 * networking: the infrastructure listens on loopback, and so does the
 * container, on a port picked free by the caller.
 */
export class SmokeContainer {
  private constructor(
    readonly name: string,
    private readonly envDir: string,
  ) {}

  static async start(options: SmokeRunOptions): Promise<SmokeContainer> {
    const name = `${options.name}-${randomBytes(4).toString('hex')}`;
    // Variables go through a file (owner-only): the keys never appear in `ps`.
    const envDir = await mkdtemp(join(tmpdir(), 'transmute-smoke-env-'));
    const envFile = join(envDir, 'env');
    await writeFile(
      envFile,
      Object.entries(options.env ?? {})
        .map(([key, value]) => `${key}=${value}\n`)
        .join(''),
      { mode: 0o600 },
    );
    const container = new SmokeContainer(name, envDir);
    try {
      await podmanOutput([
        'run',
        '--detach',
        '--name',
        name,
        '--network',
        'host',
        '--user',
        CHART_USER,
        '--read-only',
        '--tmpfs',
        '/tmp:rw,size=512m,mode=1777',
        '--cap-drop',
        'ALL',
        '--security-opt',
        'no-new-privileges',
        ...CONTAINER_ULIMITS,
        '--env-file',
        envFile,
        ...(options.dataDir === undefined ? [] : ['--volume', `${options.dataDir}:/data`]),
        ...(options.entrypoint === undefined ? [] : ['--entrypoint', options.entrypoint]),
        options.ref,
        ...(options.args ?? []),
      ]);
    } catch (error) {
      await container.remove();
      throw error;
    }
    return container;
  }

  /** true while the container's main process runs. */
  async isRunning(): Promise<boolean> {
    return (await podmanOutput(['inspect', '--format', '{{.State.Running}}', this.name])) === 'true';
  }

  async logs(lines = 60): Promise<string> {
    return podmanCombinedOutput(['logs', '--tail', String(lines), this.name]).catch((error: Error) => `(no logs: ${error.message})`);
  }

  /** SIGTERM, SIGKILL after graceSeconds; resolves to the main process's exit code. */
  async stop(graceSeconds: number): Promise<number> {
    await podmanOutput(['stop', '--time', String(graceSeconds), this.name]);
    return Number(await podmanOutput(['inspect', '--format', '{{.State.ExitCode}}', this.name]));
  }

  async remove(): Promise<void> {
    await podmanOutput(['rm', '--force', '--ignore', this.name]).catch(() => undefined);
    await rm(this.envDir, { recursive: true, force: true });
  }
}

/** Runs a command to its end in a throw-away container of the image (same restrictions); its output. */
export async function runOnce(ref: string, command: string[]): Promise<string> {
  return podmanOutput([
    'run',
    '--rm',
    '--network',
    'none',
    '--user',
    CHART_USER,
    '--read-only',
    '--cap-drop',
    'ALL',
    '--security-opt',
    'no-new-privileges',
    ...CONTAINER_ULIMITS,
    '--entrypoint',
    command[0]!,
    ref,
    ...command.slice(1),
  ]);
}
