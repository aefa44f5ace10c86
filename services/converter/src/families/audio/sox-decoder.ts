import { ServiceFailure } from '@transmute/contracts';
import { runEngine } from '../../engine/run-engine';
import type { SoxInput } from './sox-formats';

const DECODE_TIMEOUT_MS = 10 * 60_000;

/**
 * Decodes a SoX-only format into a WAV file ffmpeg then converts. The type is
 * forced (`-t`), so a file is never read by what its name or header claims to
 * be; a file SoX cannot read is the input's fault.
 */
export async function decodeWithSox(inputPath: string, inputFormat: string, input: SoxInput, wavPath: string, signal: AbortSignal): Promise<void> {
  try {
    await runEngine({ command: 'sox', args: ['-V1', '--no-glob', '-t', input.type, inputPath, '-t', 'wav', wavPath], timeoutMs: DECODE_TIMEOUT_MS, signal });
  } catch (error) {
    if (error instanceof ServiceFailure && error.retryable) throw error;
    throw ServiceFailure.validation(`the input is not a readable ${inputFormat} file: ${(error as Error).message}`);
  }
}
