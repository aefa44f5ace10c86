import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveCommand } from '../../../engine/resolve-command';
import { engineEnvironment } from '../../../engine/run-engine';
import { DEFAULT_SUPERVISOR_CONFIG } from '../../../engine/supervisor/engine-supervisor.config';
import { type EngineReadiness, EngineSupervisor } from '../../../engine/supervisor/engine-supervisor';
import { type OfficeJob, officeProcess } from './office-instance';
import { clearAbandonedOffices, profileRootPrefix } from './office-leftovers';
import type { OfficePoolSettings } from './office-pool.config';

/**
 * The document family's warm LibreOffice processes: `size` of them behind the
 * engine supervisor (bounded queue, time limit, restarts, idle stop, start
 * retries with a back-off, readiness, metrics under `engine="libreoffice"`),
 * each with its own profile directory. A LibreOffice that cannot start (not
 * installed, a first start that crashes) is retried in the background; the
 * pool is not ready meanwhile and its conversions come back later.
 */
export class OfficePool {
  private readonly supervisor: EngineSupervisor<OfficeJob>;
  private profileRoot?: Promise<string>;
  private ownsProfileRoot = false;
  /** Found by `prepare`, before each start. */
  private programs = { python: '', soffice: '', profileRoot: '' };

  constructor(private readonly config: OfficePoolSettings) {
    // A headless display plug-in: no window, no first-start dialog.
    const env = engineEnvironment({ SAL_USE_VCLPLUGIN: 'svp' });
    this.supervisor = new EngineSupervisor<OfficeJob>(
      {
        engine: 'libreoffice',
        label: 'LibreOffice',
        size: config.size,
        maxConversions: config.maxConversions,
        timeoutMs: config.timeoutMs,
        queueLimit: config.queueLimit ?? DEFAULT_SUPERVISOR_CONFIG.queueLimit,
        idleStopMs: config.idleStopMs ?? DEFAULT_SUPERVISOR_CONFIG.idleStopMs,
        failureThreshold: config.failureThreshold ?? DEFAULT_SUPERVISOR_CONFIG.failureThreshold,
      },
      (slot, events) =>
        officeProcess(
          slot,
          {
            prepare: () => this.prepare(),
            programs: () => ({ python: this.programs.python, soffice: this.programs.soffice, profileDir: join(this.programs.profileRoot, `profile-${slot}`) }),
            env,
          },
          events,
        ),
    );
  }

  /** Starts every process; resolves once each came up or failed its first try (then it is retried in the background). Never rejects. */
  async start(): Promise<void> {
    await clearAbandonedOffices();
    return this.supervisor.start();
  }

  /** Up once a process came up; stays up through routine restarts and idle stops, down after repeated failed starts. */
  get isReady(): boolean {
    return this.supervisor.isReady;
  }

  readiness(): EngineReadiness {
    return this.supervisor.readiness();
  }

  /** Conversions each process has served since its last (re)start. */
  servedCounts(): number[] {
    return this.supervisor.servedCounts();
  }

  /** Process ids of the bridges, by slot (tests). */
  pids(): (number | undefined)[] {
    return this.supervisor.pids();
  }

  convert(job: OfficeJob, signal: AbortSignal): Promise<void> {
    return this.supervisor.run(job, signal);
  }

  async stop(): Promise<void> {
    await this.supervisor.stop();
    const root = await this.profileRoot?.catch(() => undefined);
    if (root && this.ownsProfileRoot) await rm(root, { recursive: true, force: true });
  }

  /** Before every start: the programs (installed meanwhile counts) and the profiles' parent directory. */
  private async prepare(): Promise<void> {
    const [python, soffice] = await Promise.all([resolveCommand(this.config.python), resolveCommand(this.config.soffice)]);
    if (!python) throw new Error(`${this.config.python} with the uno module is not installed (Debian: python3-uno)`);
    if (!soffice) throw new Error(`${this.config.soffice} is not installed (Debian: libreoffice-*-nogui)`);
    this.profileRoot ??= this.makeProfileRoot().catch((error: unknown) => {
      this.profileRoot = undefined;
      throw error;
    });
    this.programs = { python, soffice, profileRoot: await this.profileRoot };
  }

  private async makeProfileRoot(): Promise<string> {
    if (this.config.profileRoot) {
      await mkdir(this.config.profileRoot, { recursive: true });
      return this.config.profileRoot;
    }
    this.ownsProfileRoot = true;
    return mkdtemp(join(tmpdir(), profileRootPrefix()));
  }
}
