import { ServiceFailure } from '@transmute/contracts';
import { runEngine } from '../../engine/run-engine';
import type { ConversionRequest } from '../family';
import { ffmpegArgs, trimmedLength } from './ffmpeg-command';
import { progressTracker } from './ffmpeg-progress';
import type { MediaProbe, OutputProfile } from './media-profile';
import { mediaSettings } from './media-settings';

const PROBE_TIMEOUT_MS = 60_000;
/** Demuxers of raw streams whose frames all come out with colliding timestamps: ffmpeg kept 3 of 25 Dirac frames. */
const UNTIMED_DEMUXERS = new Set(['dirac']);
/**
 * Demuxers of containers whose sound comes in fixed-size packets, the last
 * padded with silence: GXF's 64 KiB packets made a 1 s recording play 1.37 s.
 * Only the length the container states is real.
 */
export const PADDED_AUDIO_DEMUXERS = new Set(['gxf']);
const CONVERT_TIMEOUT_MS = 60 * 60_000;

/** Reads what an input holds; a file ffprobe cannot open is the input's fault, so the failure is permanent. */
export async function probeMedia(path: string, format: string, signal: AbortSignal): Promise<MediaProbe> {
  let stdout: string;
  try {
    ({ stdout } = await runEngine({
      command: 'ffprobe',
      args: ['-v', 'error', '-show_entries', 'format=duration,format_name:stream=codec_type,avg_frame_rate,channels', '-of', 'json', path],
      timeoutMs: PROBE_TIMEOUT_MS,
      signal,
    }));
  } catch (error) {
    if (error instanceof ServiceFailure && error.retryable) throw error;
    throw ServiceFailure.validation(`the input is not a readable ${format} file: ${(error as Error).message}`);
  }
  const parsed = JSON.parse(stdout) as {
    format?: { duration?: string; format_name?: string };
    streams?: { codec_type?: string; avg_frame_rate?: string; channels?: number }[];
  };
  const streams = parsed.streams ?? [];
  const video = streams.find((stream) => stream.codec_type === 'video');
  const audio = streams.find((stream) => stream.codec_type === 'audio');
  const duration = Number(parsed.format?.duration);
  return {
    durationSec: Number.isFinite(duration) && duration > 0 ? duration : undefined,
    fps: video ? frameRate(video.avg_frame_rate) : undefined,
    hasVideo: video !== undefined,
    hasAudio: audio !== undefined,
    audioChannels: audio?.channels,
    untimed: UNTIMED_DEMUXERS.has(parsed.format?.format_name ?? ''),
    paddedAudio: audio !== undefined && PADDED_AUDIO_DEMUXERS.has(parsed.format?.format_name ?? ''),
  };
}

function frameRate(text: string | undefined): number | undefined {
  const [num, den] = (text ?? '').split('/').map(Number);
  const rate = den ? num! / den : num;
  return rate && Number.isFinite(rate) && rate > 0 ? rate : undefined;
}

/** One ffmpeg conversion to `profile`, reporting progress against the (trimmed) input length. */
export async function convertMedia(request: ConversionRequest, profile: OutputProfile): Promise<void> {
  const source = await probeMedia(request.inputPath, request.inputFormat, request.signal);
  if (!profile.video && !source.hasAudio) {
    throw ServiceFailure.validation(`the ${request.inputFormat} file has no audio track to write as ${request.outputFormat}`);
  }
  if (profile.video && !source.hasVideo && !profile.audio) {
    throw ServiceFailure.validation(`the ${request.inputFormat} file has no video track to write as ${request.outputFormat}`);
  }
  if (!source.hasVideo && !source.hasAudio) throw ServiceFailure.validation(`the ${request.inputFormat} file has no audio or video track`);
  const settings = mediaSettings(request.options, profile);
  const available = source.durationSec !== undefined ? source.durationSec - (settings.trimStartSec ?? 0) : undefined;
  if (available !== undefined && available <= 0) {
    throw ServiceFailure.validation(`trim_start (${settings.trimStartSec} s) is past the end of the input (${source.durationSec!.toFixed(1)} s)`);
  }
  const wanted = trimmedLength(settings);
  const expected = wanted !== undefined && available !== undefined ? Math.min(wanted, available) : (wanted ?? available);
  const args = ffmpegArgs({ inputPath: request.inputPath, outputPath: request.outputPath, profile, settings, source });
  await runEngine({
    command: 'ffmpeg',
    args,
    timeoutMs: CONVERT_TIMEOUT_MS,
    signal: request.signal,
    onStdoutLine: progressTracker(expected, (percent) => request.reportProgress(percent)),
  });
}
