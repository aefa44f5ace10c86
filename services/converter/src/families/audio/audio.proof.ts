import type { FamilyProof } from '../../matrix/family-proof';
import { mediaContentCheck } from '../ffmpeg/media-fidelity';
import { mediaOptionChecks } from '../ffmpeg/media.option-checks';
import { verifyMediaOutput, writeMediaSample } from '../ffmpeg/media-proof';
import { writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { runEngine } from '../../engine/run-engine';
import { AUDIO_OUTPUTS } from './audio-formats';
import { decodeWithSox } from './sox-decoder';
import { SOX_INPUTS } from './sox-formats';
import { protrackerModule } from './tracker-module';

/** A 1 s 440 Hz tone written by SoX in one of the formats only SoX reads. */
export async function writeSoxSample(format: string, dir: string, signal: AbortSignal): Promise<string> {
  const input = SOX_INPUTS[format];
  if (!input) throw new Error(`no SoX sample recipe for ${format}`);
  const path = join(dir, `sample.${format}`);
  const { rate, channels } = input.sample;
  await runEngine({
    command: 'sox',
    args: ['-V1', '-n', '-r', String(rate), '-c', String(channels), '-t', input.type, path, 'synth', '1', 'sine', '440'],
    timeoutMs: 60_000,
    signal,
  });
  return path;
}

export function audioProof(): FamilyProof {
  const profileOf = (format: string) => AUDIO_OUTPUTS[format];
  return {
    family: 'audio',
    checkContent: mediaContentCheck(profileOf, decodeSoxSource),
    optionChecks: mediaOptionChecks(profileOf, ['wav', 'flac']),
    narrowed: ['opus', 'mka'].map((output) => ({
      option: 'sample_rate',
      where: `${output} outputs`,
      reason: 'Opus (the default codec) always decodes at 48 kHz: no other rate was measured',
    })),
    generateSample(inputFormat, dir, signal) {
      if (SOX_INPUTS[inputFormat]) return writeSoxSample(inputFormat, dir, signal);
      if (inputFormat === 'mod') return writeModSample(dir);
      const profile = AUDIO_OUTPUTS[inputFormat];
      if (!profile) return Promise.reject(new Error(`no sample recipe for ${inputFormat}`));
      return writeMediaSample(inputFormat, profile, dir, signal);
    },
    verifyOutput(outputFormat, path) {
      const profile = AUDIO_OUTPUTS[outputFormat];
      if (!profile) return Promise.reject(new Error(`the audio family does not write ${outputFormat}`));
      return verifyMediaOutput(outputFormat, profile, path);
    },
  };
}

/**
 * ffmpeg reads none of the SoX-only samples (or misreads them: a Psion prc
 * came out as a 3 s sound at twice the pitch), so SoX, which wrote them,
 * decodes the source to WAV for the check; the outputs are read by ffprobe.
 */
async function decodeSoxSource(inputFormat: string, path: string, signal: AbortSignal): Promise<{ path: string; reader: string } | undefined> {
  const input = SOX_INPUTS[inputFormat];
  if (!input) return undefined;
  const wav = join(dirname(path), `${basename(path)}.decoded.wav`);
  await decodeWithSox(path, inputFormat, input, wav, signal);
  return { path: wav, reader: `SoX (it wrote the sample; ffmpeg reads no ${inputFormat})` };
}

/** The ProTracker module the proof writes (tracker-module.ts): about a second of a ~436 Hz tone. */
export async function writeModSample(dir: string): Promise<string> {
  const path = join(dir, 'sample.mod');
  await writeFile(path, protrackerModule());
  return path;
}
