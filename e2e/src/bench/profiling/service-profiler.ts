import { mkdir, readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { PROFILE_DIR_VARIABLE } from './cpu-profile-preload';
import { describeSummary, readProfile, summarizeProfile } from './profile-summary';

const WRITE_WAIT_MS = 15_000;

/**
 * CPU profiles of a platform's services over one stretch of a benchmark.
 * `prepare` must run before the platform starts: the services inherit the
 * preload through NODE_OPTIONS. Then `start` and `stop` bracket the stretch
 * by signal (cpu-profile-preload.ts), and `stop` reports where each
 * service's CPU went.
 */
export class ServiceProfiler {
  private constructor(private readonly dir: string) {}

  static async prepare(dir: string): Promise<ServiceProfiler> {
    const absolute = resolve(dir);
    await mkdir(absolute, { recursive: true });
    const preload = join(__dirname, 'cpu-profile-preload.js');
    process.env['NODE_OPTIONS'] = [process.env['NODE_OPTIONS'], `--require ${preload}`].filter(Boolean).join(' ');
    process.env[PROFILE_DIR_VARIABLE] = absolute;
    return new ServiceProfiler(absolute);
  }

  start(pids: readonly number[]): void {
    for (const pid of pids) process.kill(pid, 'SIGUSR2');
  }

  /** Stops the profilers, waits for their files and summarises each; the lines name the files. */
  async stop(pids: readonly number[]): Promise<string[]> {
    for (const pid of pids) process.kill(pid, 'SIGUSR2');
    const wanted = new Set(pids.map(String));
    const deadline = Date.now() + WRITE_WAIT_MS;
    let files: string[] = [];
    for (;;) {
      files = (await readdir(this.dir)).filter((file) => file.endsWith('.cpuprofile') && wanted.has(/-(\d+)\.cpuprofile$/.exec(file)?.[1] ?? ''));
      if (files.length >= wanted.size || Date.now() > deadline) break;
      await new Promise((done) => setTimeout(done, 200));
    }
    const lines = [`  profiles in ${this.dir} (open them in Chrome DevTools or speedscope); self time of each service:`];
    if (files.length < wanted.size) lines.push(`  ${wanted.size - files.length} of ${wanted.size} services wrote no profile within ${WRITE_WAIT_MS / 1000} s`);
    for (const file of files.sort()) lines.push(...describeSummary(file.replace(/\.cpuprofile$/, ''), summarizeProfile(await readProfile(join(this.dir, file)))));
    return lines;
  }
}
