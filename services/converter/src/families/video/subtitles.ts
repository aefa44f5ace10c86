import { ServiceFailure } from '@transmute/contracts';
import { runEngine } from '../../engine/run-engine';

/**
 * Text subtitles, by extension: ffmpeg's demuxer for each readable format and
 * its muxer for each writable one. The demuxer is forced (`-f`), so a file is
 * never read by what its content claims to be.
 */
export const SUBTITLE_INPUTS: Record<string, string> = {
  srt: 'srt',
  vtt: 'webvtt',
  ass: 'ass',
  lrc: 'lrc',
  // Microsoft SAMI, AQTitle and Phoenix Japanimation Society subtitles: read only.
  smi: 'sami',
  sami: 'sami',
  aqt: 'aqtitle',
  pjs: 'pjs',
  // SubStation Alpha v4 (ASS's predecessor), JACOsub, MicroDVD, RealText, Scenarist closed captions: read only.
  ssa: 'ass',
  jss: 'jacosub',
  sub: 'microdvd',
  rt: 'realtext',
  scc: 'scc',
};

export const SUBTITLE_OUTPUTS: Record<string, string> = { srt: 'srt', vtt: 'webvtt', ass: 'ass', lrc: 'lrc' };

const TIMEOUT_MS = 2 * 60_000;

/** Spellings of one format: a pair between them would only rename the file. */
const SAME: Record<string, string> = { sami: 'smi' };

/** What a pair to or from LRC loses (the fidelity check holds the output to the rest): from LRC, each line's end is the next one's start. */
export const LRC_LOSS = 'LRC has no end times: each line shows until the next one';

export function subtitlePairs(): { inputFormat: string; outputFormat: string; note?: string }[] {
  const pairs: { inputFormat: string; outputFormat: string; note?: string }[] = [];
  for (const inputFormat of Object.keys(SUBTITLE_INPUTS)) {
    for (const outputFormat of Object.keys(SUBTITLE_OUTPUTS)) {
      if ((SAME[inputFormat] ?? inputFormat) !== outputFormat)
        pairs.push({ inputFormat, outputFormat, ...(outputFormat === 'lrc' || inputFormat === 'lrc' ? { note: LRC_LOSS } : {}) });
    }
  }
  return pairs;
}

/** Converts the first subtitle stream of the input; a file ffmpeg cannot read as that format is the input's fault. */
export async function convertSubtitles(inputPath: string, outputPath: string, inputFormat: string, outputFormat: string, signal: AbortSignal): Promise<void> {
  const demuxer = SUBTITLE_INPUTS[inputFormat];
  const muxer = SUBTITLE_OUTPUTS[outputFormat];
  if (!demuxer || !muxer) throw ServiceFailure.validation(`the video family does not convert ${inputFormat} subtitles to ${outputFormat}`);
  try {
    // ffmpeg reads a file with no cue it understands as an empty track and writes an empty file (or a bare header), successfully.
    const { stdout } = await runEngine({
      command: 'ffprobe',
      args: ['-v', 'error', '-f', demuxer, '-count_packets', '-select_streams', 's:0', '-show_entries', 'stream=nb_read_packets', '-of', 'csv=p=0', inputPath],
      timeoutMs: TIMEOUT_MS,
      signal,
    });
    if (!(Number(stdout.trim()) > 0)) throw ServiceFailure.validation('no cue could be read');
    await runEngine({
      command: 'ffmpeg',
      args: ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', '-f', demuxer, '-i', inputPath, '-map', '0:s:0', '-f', muxer, outputPath],
      timeoutMs: TIMEOUT_MS,
      signal,
    });
  } catch (error) {
    if (error instanceof ServiceFailure && error.retryable) throw error;
    throw ServiceFailure.validation(`the input is not a readable ${inputFormat} subtitle file: ${(error as Error).message}`);
  }
}
