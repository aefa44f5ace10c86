import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceFailure } from '@transmute/contracts';
import { resolveCommand } from '../../../engine/resolve-command';
import { engineEnvironment } from '../../../engine/run-engine';
import { DEFAULT_SUPERVISOR_CONFIG } from '../../../engine/supervisor/engine-supervisor.config';
import { EngineSupervisor } from '../../../engine/supervisor/engine-supervisor';
import { type OfficeJob, officeProcess } from './office-instance';
import type { OfficePoolSettings } from './office-pool.config';

/**
 * The document family's warm LibreOffice processes: `size` of them behind the
 * engine supervisor (bounded queue, time limit, restarts, idle stop, health,
 * metrics under `engine="libreoffice"`), each with its own profile directory.
 */
export class OfficePool {
  private supervisor?: EngineSupervisor<OfficeJob>;
  private profileRoot?: string;
  private ownsProfileRoot = false;
  private started?: Promise<void>;

  constructor(private readonly config: OfficePoolSettings) {}

  /** Starts every process; safe to call more than once. */
  start(): Promise<void> {
    this.started ??= this.startSupervisor().catch(async (error: unknown) => {
      this.started = undefined;
      await this.stop();
      throw error;
    });
    return this.started;
  }

  /** The worker's readiness: started and below the failure threshold. A routine restart or an idle stop keeps it up. */
  get isReady(): boolean {
    return this.supervisor?.isHealthy ?? false;
  }

  /** Conversions each process has served since its last (re)start. */
  servedCounts(): number[] {
    return this.supervisor?.servedCounts() ?? [];
  }

  /** Process ids of the bridges, by slot (tests). */
  pids(): (number | undefined)[] {
    return this.supervisor?.pids() ?? [];
  }

  async convert(job: OfficeJob, signal: AbortSignal): Promise<void> {
    await this.start();
    await this.supervisor!.run(job, signal);
  }

  async stop(): Promise<void> {
    await this.supervisor?.stop();
    if (this.profileRoot && this.ownsProfileRoot) await rm(this.profileRoot, { recursive: true, force: true });
  }

  private async startSupervisor(): Promise<void> {
    const [python, soffice] = await Promise.all([resolveCommand(this.config.python), resolveCommand(this.config.soffice)]);
    if (!python) throw ServiceFailure.unavailable(`the LibreOffice pool needs ${this.config.python} with the uno module (Debian: python3-uno)`);
    if (!soffice) throw ServiceFailure.unavailable(`the LibreOffice pool needs ${this.config.soffice} (Debian: libreoffice-*-nogui)`);
    if (this.config.profileRoot) {
      this.profileRoot = this.config.profileRoot;
      await mkdir(this.profileRoot, { recursive: true });
    } else {
      this.profileRoot = await mkdtemp(join(tmpdir(), 'transmute-office-'));
      this.ownsProfileRoot = true;
    }
    const profileRoot = this.profileRoot;
    // A headless display plug-in: no window, no first-start dialog.
    const env = engineEnvironment({ SAL_USE_VCLPLUGIN: 'svp' });
    this.supervisor = new EngineSupervisor<OfficeJob>(
      {
        engine: 'libreoffice',
        label: 'LibreOffice',
        size: this.config.size,
        maxConversions: this.config.maxConversions,
        timeoutMs: this.config.timeoutMs,
        queueLimit: this.config.queueLimit ?? DEFAULT_SUPERVISOR_CONFIG.queueLimit,
        idleStopMs: this.config.idleStopMs ?? DEFAULT_SUPERVISOR_CONFIG.idleStopMs,
        failureThreshold: this.config.failureThreshold ?? DEFAULT_SUPERVISOR_CONFIG.failureThreshold,
      },
      (slot, events) => officeProcess(slot, { python, soffice, profileDir: join(profileRoot, `profile-${slot}`), env }, events),
    );
    await this.supervisor.start();
  }
}
