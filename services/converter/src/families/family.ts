import type { ConversionOption } from '@transmute/contracts';

export interface ConversionRequest {
  inputPath: string;
  outputPath: string;
  inputFormat: string;
  outputFormat: string;
  /** The task's options; a family reads the ones it declares and ignores the rest. */
  options: Readonly<Record<string, unknown>>;
  signal: AbortSignal;
  /**
   * Progress of a long conversion, 0-100. Cheap to call often: the worker
   * throttles what it forwards to the task record and keeps the JetStream
   * message alive meanwhile.
   */
  reportProgress(percent: number): void;
}

export interface FamilyReadiness {
  ready: boolean;
  detail: string;
}

export interface PairDeclaration {
  inputFormat: string;
  outputFormat: string;
  options: ConversionOption[];
  /** What this pair loses by the nature of its formats ("only the first page"), in plain words; absent when nothing. */
  note?: string;
}

/**
 * One format family: what it converts (its manifest) and how. Engines that
 * live long (office suites) start in `start` and stop in `stop`; `start`
 * must not fail because an engine does not come up (it retries on its own
 * and says so through `readiness`), or one engine would take the converter
 * down.
 */
export interface ConverterFamily {
  readonly name: string;
  readonly engineVersion: string;
  pairs(): PairDeclaration[];
  convert(request: ConversionRequest): Promise<void>;
  start?(): Promise<void>;
  stop?(): Promise<void>;
  /**
   * Not ready while a long-lived engine is not up yet (or keeps failing to
   * start), with what `/readyz` shows about it; feeds the worker's readiness
   * and `transmute_family_ready`. Absent: always ready. Pairs that need no
   * such engine keep converting meanwhile.
   */
  readiness?(): FamilyReadiness;
}
