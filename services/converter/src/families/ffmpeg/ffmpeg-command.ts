import { AUDIO_CODECS, VIDEO_CODECS, type VideoCodec } from './codecs';
import type { MediaProbe, OutputProfile } from './media-profile';
import { FRAME_RATES, type MediaSettings, PRESETS, type Preset, sampleRates } from './media-settings';

export interface FfmpegPlan {
  inputPath: string;
  outputPath: string;
  profile: OutputProfile;
  settings: MediaSettings;
  source: MediaProbe;
}

/**
 * The ffmpeg argument array for one conversion. Pure: the same plan always
 * gives the same arguments, so the option-to-argument rules are table-tested
 * without running ffmpeg. Progress goes to stdout as key=value lines.
 */
export function ffmpegArgs(plan: FfmpegPlan): string[] {
  const { settings, profile } = plan;
  const args = ['-nostdin', '-hide_banner', '-nostats', '-loglevel', 'error', '-progress', 'pipe:1', '-y'];
  // Before -i, -ss seeks the input (fast); ffmpeg still cuts at the exact time when it re-encodes.
  if (settings.trimStartSec) args.push('-ss', String(settings.trimStartSec));
  // A raw stream without timestamps gets them from its rate; otherwise frames collide and are dropped.
  if (plan.source.untimed && plan.source.fps) args.push('-r', String(plan.source.fps));
  args.push('-i', plan.inputPath);
  const length = trimmedLength(settings);
  if (length !== undefined) args.push('-t', String(length));
  // Subtitle and data streams rarely fit the target container; media conversion carries picture and sound.
  args.push('-sn', '-dn');
  args.push(...(profile.video ? videoArgs(plan) : ['-vn']));
  args.push(...(profile.audio ? audioArgs(plan) : ['-an']));
  args.push(...(profile.muxerArgs ?? []), '-f', profile.muxer, plan.outputPath);
  return args;
}

/** Seconds of media the output should hold, when a trim end is set. */
export function trimmedLength(settings: MediaSettings): number | undefined {
  return settings.trimEndSec === undefined ? undefined : settings.trimEndSec - (settings.trimStartSec ?? 0);
}

function videoArgs({ profile, settings, source }: FfmpegPlan): string[] {
  const video = profile.video!;
  const name = settings.videoCodec ?? video.codecs[0];
  const codec: VideoCodec = VIDEO_CODECS[name];
  const args = ['-c:v', codec.encoder, ...(codec.args ?? [])];
  const tag = video.tags?.[name];
  if (tag) args.push('-tag:v', tag);
  const fps = video.fixedFps ?? settings.fps ?? (codec.standardFps ? nearestStandardFps(source.fps) : undefined);
  const filters = sizeFilters(video.fixedSize, settings, codec.multipleOf ?? 1);
  // -r alone only retimes for muxers of variable-rate formats (FLV, MPEG-TS, GIF): the fps filter makes the frames.
  if (fps !== undefined) filters.push(`fps=${fps}`);
  if (filters.length > 0) args.push('-vf', filters.join(','));
  if (codec.pixFmt) args.push('-pix_fmt', codec.pixFmt);
  if (fps !== undefined) args.push('-r', String(fps));
  args.push(...rateArgs(codec, settings));
  args.push(...presetArgs(codec, settings.preset ?? 'medium'));
  return args;
}

function sizeFilters(fixed: readonly [number, number] | undefined, settings: MediaSettings, multipleOf: number): string[] {
  if (fixed) {
    const [w, h] = fixed;
    // Letterbox into the only size the format takes, keeping the picture's proportions.
    return [`scale=${w}:${h}:force_original_aspect_ratio=decrease`, `pad=${w}:${h}:(ow-iw)/2:(oh-ih)/2`, 'setsar=1'];
  }
  const filters: string[] = [];
  if (settings.width || settings.height) {
    // -2 keeps the proportions for the side not given, rounded to an even number.
    filters.push(`scale=${settings.width ?? -2}:${settings.height ?? -2}`);
  }
  // Encoders that need sides divisible by 2 or 16 get the nearest such size at or below the source's.
  if (multipleOf > 1) filters.push(`scale=trunc(iw/${multipleOf})*${multipleOf}:trunc(ih/${multipleOf})*${multipleOf}`);
  return filters;
}

function rateArgs(codec: VideoCodec, settings: MediaSettings): string[] {
  if (codec.crf && settings.rateControl === 'crf') {
    const crf = String(settings.crf ?? codec.crf.default);
    return ['-crf', crf, ...(codec.crf.args ?? []), ...(codec.crf.floor ? ['-qmin', crf] : [])];
  }
  if (!codec.bitrate || !settings.videoBitrateKbps) return [];
  const target = ['-b:v', `${settings.videoBitrateKbps}k`];
  // libavcodec's own encoders drift within a tolerance of 4 Mbit/s by default: 150k asked came out at 420k.
  return codec.rateTolerance ? [...target, '-bt', `${Math.ceil(settings.videoBitrateKbps * codec.rateTolerance)}k`] : target;
}

function presetArgs(codec: VideoCodec, preset: Preset): string[] {
  const index = PRESETS.indexOf(preset);
  switch (codec.preset) {
    case 'x26x':
      return ['-preset', preset];
    case 'vpx':
      // libvpx's speed is -cpu-used (higher is faster); the fastest presets also use the realtime deadline.
      return ['-deadline', index === 0 ? 'realtime' : 'good', '-cpu-used', String(Math.min(8, 10 - index))];
    case 'svtav1':
      // SVT-AV1 presets run 0 (slowest) to 13 (fastest); medium maps to 8, its speed/size sweet spot.
      return ['-preset', String(13 - index)];
    default:
      return [];
  }
}

const STANDARD_FPS = [23.976, 24, 25, 29.97, 30, 50, 59.94, 60];

/** MPEG-1/2 take only broadcast frame rates: a source at another rate goes to the nearest common one. */
function nearestStandardFps(fps: number | undefined): number | undefined {
  if (fps === undefined || STANDARD_FPS.some((rate) => Math.abs(rate - fps) < 0.01)) return undefined;
  return FRAME_RATES.reduce((best, rate) => (Math.abs(rate - fps) < Math.abs(best - fps) ? rate : best), FRAME_RATES[0]);
}

/**
 * Cuts sound a container padded past its stated length (GXF) at that length.
 * Only the sound: its video frames carry no timestamps, and a -t there dropped the last one.
 */
function paddingCut(settings: MediaSettings, source: MediaProbe): string | undefined {
  if (!source.paddedAudio || source.durationSec === undefined) return undefined;
  // -ss before the input starts the timestamps at 0 again.
  return `atrim=end=${source.durationSec - (settings.trimStartSec ?? 0)}`;
}

function audioArgs({ profile, settings, source }: FfmpegPlan): string[] {
  const audio = profile.audio!;
  const name = settings.audioCodec ?? audio.codecs[0];
  const codec = AUDIO_CODECS[name] as { encoder: string; args?: readonly string[]; maxChannels?: number };
  const args = ['-c:a', codec.encoder, ...(codec.args ?? [])];
  const filters = [paddingCut(settings, source), audio.filter].filter((filter) => filter !== undefined);
  if (filters.length > 0) args.push('-af', filters.join(','));
  const rate = audio.fixedSampleRate ?? settings.sampleRate;
  if (rate !== undefined && (audio.fixedSampleRate !== undefined || sampleRates(name).includes(rate))) args.push('-ar', String(rate));
  // The channel count is always stated: some decoders (Speex) give no layout, and AAC refuses a count without one.
  const wanted = settings.channels ?? source.audioChannels;
  const channels = audio.fixedChannels ?? (wanted !== undefined ? Math.min(wanted, codec.maxChannels ?? 8) : undefined);
  if (channels !== undefined) args.push('-ac', String(channels));
  // Without a bitrate asked for, the encoder picks one that suits the rate and layout (192k would break Vorbis at 8 kHz mono).
  if (settings.audioBitrateKbps !== undefined) args.push('-b:a', `${settings.audioBitrateKbps}k`);
  return args;
}
