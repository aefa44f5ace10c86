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

export interface PairDeclaration {
  inputFormat: string;
  outputFormat: string;
  options: ConversionOption[];
  /** What this pair loses by the nature of its formats ("only the first page"), in plain words; absent when nothing. */
  note?: string;
}

/**
 * One format family: what it converts (its manifest) and how. Engines that
 * live long (office suites) start in `start` and stop in `stop`.
 */
export interface ConverterFamily {
  readonly name: string;
  readonly engineVersion: string;
  pairs(): PairDeclaration[];
  convert(request: ConversionRequest): Promise<void>;
  start?(): Promise<void>;
  stop?(): Promise<void>;
  /** False while the family's long-lived engines are down; feeds the worker's readiness. Absent: always ready. */
  isReady?(): boolean;
}
