import { ServiceFailure } from '@transmute/contracts';
import { engineLimits } from '../../../engine/engine-limits';
import { resolveCommand } from '../../../engine/resolve-command';
import { engineEnvironment } from '../../../engine/run-engine';
import { DEFAULT_SUPERVISOR_CONFIG, type EngineSupervisorConfig } from '../../../engine/supervisor/engine-supervisor.config';
import { type EngineReadiness, EngineSupervisor } from '../../../engine/supervisor/engine-supervisor';
import { JsonLinesProcess } from '../../../engine/supervisor/json-lines-process';
import { PDF_TO_WORD_BRIDGE_SOURCE } from './pdf-to-word-bridge-source';
import type { PdfToWordConfig } from './pdf-to-word.config';

/** One PDF → DOCX reconstruction; pages are 1-based and inclusive. */
export interface PdfToWordJob {
  input: string;
  output: string;
  firstPage?: number;
  lastPage?: number;
}

export type PdfToWordSettings = Omit<PdfToWordConfig, keyof EngineSupervisorConfig> & Partial<EngineSupervisorConfig>;

const START_TIMEOUT_MS = 60_000;

/**
 * pdf2docx (docs/decisions.md, "PDF to Word") kept warm behind the engine
 * supervisor (`engine="pdf2docx"`): bounded queue, time limit, restarts,
 * idle stop. Each process runs under the converter's address-space ceiling
 * (`prlimit --as`), like every one-shot engine.
 */
export class PdfToWordEngine {
  private supervisor?: EngineSupervisor<PdfToWordJob>;
  private started?: Promise<void>;

  constructor(private readonly config: PdfToWordSettings) {}

  readiness(): EngineReadiness {
    // Started lazily: not yet needed is not unhealthy.
    return this.supervisor?.readiness() ?? { ready: true, detail: 'PDF to Word starts on first use' };
  }

  async convert(job: PdfToWordJob, signal: AbortSignal): Promise<void> {
    this.started ??= this.startSupervisor().catch((error: unknown) => {
      this.started = undefined;
      throw error;
    });
    await this.started;
    await this.supervisor!.run(job, signal);
  }

  async stop(): Promise<void> {
    await this.supervisor?.stop();
    this.supervisor = undefined;
    this.started = undefined;
  }

  private async startSupervisor(): Promise<void> {
    const python = await resolveCommand(this.config.python);
    if (!python) throw ServiceFailure.unavailable(`PDF to Word needs ${this.config.python} with pdf2docx`);
    const memoryMb = engineLimits().memoryLimitMb;
    const [command, prefix] = memoryMb > 0 ? ['prlimit', [`--as=${memoryMb * 1024 * 1024}`, '--', python]] : [python, []];
    const env = engineEnvironment({ OMP_NUM_THREADS: '1', OPENCV_OPENCL_RUNTIME: 'disabled' });
    const supervisor = new EngineSupervisor<PdfToWordJob>(
      {
        engine: 'pdf2docx',
        label: 'pdf2docx',
        size: this.config.size,
        maxConversions: this.config.maxConversions,
        timeoutMs: this.config.timeoutMs,
        queueLimit: this.config.queueLimit ?? DEFAULT_SUPERVISOR_CONFIG.queueLimit,
        idleStopMs: this.config.idleStopMs ?? DEFAULT_SUPERVISOR_CONFIG.idleStopMs,
        failureThreshold: this.config.failureThreshold ?? DEFAULT_SUPERVISOR_CONFIG.failureThreshold,
      },
      (_slot, events) =>
        new JsonLinesProcess<PdfToWordJob>(
          {
            label: 'pdf2docx',
            command,
            launch: () => ({ args: [...prefix, '-c', PDF_TO_WORD_BRIDGE_SOURCE] }),
            env,
            startTimeoutMs: START_TIMEOUT_MS,
            refusal: (error) => `pdf2docx could not convert the PDF: ${error}`,
          },
          events,
        ),
    );
    await supervisor.start();
    this.supervisor = supervisor;
  }
}
