import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { runEngine } from '../../engine/run-engine';
import { type ContentCheck, Findings } from '../../matrix/fidelity/findings';
import { formatDb, psnr, readRgba, resized } from '../../matrix/fidelity/pixels';
import { AUDIO_CODECS } from './codecs';
import { PADDED_AUDIO_DEMUXERS } from './media-engine';
import type { OutputProfile } from './media-profile';
import { sampleRates } from './media-settings';

/**
 * How far a duration may drift: codec priming and padding on a one-second
 * sample, 0.15 s, or two 1024-sample codec frames at low sample rates (AAC at 8 kHz pads 0.15 s).
 */
export const DURATION_TOLERANCE_SEC = 0.15;
const durationTolerance = (sampleRate?: number) => Math.max(DURATION_TOLERANCE_SEC, sampleRate ? 2048 / sampleRate : 0);
/** Opus always decodes at 48 kHz, whatever rate it was fed. */
const DECODED_RATE: Record<string, number> = { opus: 48000 };
/** The sample's tone (media-proof.ts) and how far its pitch may move. */
export const TONE_HZ = 440;
const TONE_TOLERANCE = 0.03;
/** The tone's level may change this much (dB) through a codec. */
const LEVEL_TOLERANCE_DB = 6;
/** A first frame must come back at least this close (the lowest-bitrate targets are MPEG-1 and Sorenson at their defaults). */
export const FIRST_FRAME_MIN_DB = 22;
const TIMEOUT_MS = 120_000;

export interface MediaFacts {
  durationSec?: number;
  video?: { width: number; height: number; fps: number };
  audio?: { sampleRate: number; channels: number };
  /** Where the sound ends, for a container that pads it with silence past its stated length (GXF). */
  audioEndSec?: number;
}

/** What ffprobe reads from a file: its length, the first video and audio streams. */
export async function probeFacts(path: string, signal: AbortSignal): Promise<MediaFacts> {
  const { stdout } = await runEngine({
    command: 'ffprobe',
    args: [
      '-v',
      'error',
      '-count_frames',
      '-show_entries',
      'format=duration,format_name:stream=codec_type,width,height,r_frame_rate,avg_frame_rate,sample_rate,channels,duration,nb_read_frames',
      '-of',
      'json',
      path,
    ],
    timeoutMs: TIMEOUT_MS,
    signal,
  });
  const probe = JSON.parse(stdout) as {
    format?: { duration?: string; format_name?: string };
    streams?: {
      codec_type?: string;
      width?: number;
      height?: number;
      r_frame_rate?: string;
      avg_frame_rate?: string;
      sample_rate?: string;
      channels?: number;
      duration?: string;
      nb_read_frames?: string;
    }[];
  };
  const video = probe.streams?.find((stream) => stream.codec_type === 'video');
  const audio = probe.streams?.find((stream) => stream.codec_type === 'audio');
  const fps = video ? rate(video.r_frame_rate) || rate(video.avg_frame_rate) : 0;
  const frames = Number(video?.nb_read_frames);
  // Counted frames are the surest length of a video stream (raw MPEG headers state a wrong one).
  const duration = (fps && frames ? frames / fps : 0) || Number(probe.format?.duration) || Number(audio?.duration) || Number(video?.duration) || NaN;
  const stated = Number(probe.format?.duration);
  const padded = audio !== undefined && PADDED_AUDIO_DEMUXERS.has(probe.format?.format_name ?? '') && stated > 0;
  return {
    durationSec: Number.isFinite(duration) ? duration : undefined,
    video: video ? { width: video.width ?? 0, height: video.height ?? 0, fps } : undefined,
    audio: audio ? { sampleRate: Number(audio.sample_rate), channels: audio.channels ?? 0 } : undefined,
    ...(padded ? { audioEndSec: stated } : {}),
  };
}

function rate(text: string | undefined): number {
  const [num, den] = (text ?? '').split('/').map(Number);
  const value = den ? num! / den : num!;
  return Number.isFinite(value) && value > 0 && value < 1000 ? value : 0;
}

export interface Tone {
  hz: number;
  /** RMS level in dBFS. */
  levelDb: number;
  /** Length of the decoded sound: headers of raw streams (MLP, S/PDIF) state none or a wrong one. */
  seconds: number;
}

/** The first audio stream as mono 16-bit PCM (up to `untilSec` when given): its pitch by zero crossings, and its level. */
export async function measureTone(path: string, dir: string, signal: AbortSignal, untilSec?: number): Promise<Tone> {
  const pcm = join(dir, `tone-${Math.random().toString(36).slice(2)}.raw`);
  const sampleRate = 16000;
  await runEngine({
    command: 'ffmpeg',
    args: [
      ...['-nostdin', '-hide_banner', '-loglevel', 'error', '-i', path, '-map', '0:a:0'],
      ...(untilSec !== undefined ? ['-t', String(untilSec)] : []),
      ...['-ac', '1', '-ar', String(sampleRate), '-f', 's16le', '-c:a', 'pcm_s16le', '-'],
    ],
    stdoutFile: pcm,
    timeoutMs: TIMEOUT_MS,
    signal,
  });
  const bytes = await readFile(pcm);
  await rm(pcm, { force: true });
  const samples = new Int16Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.length / 2));
  // The middle of the sound: codecs fade in (priming) and pad at the end.
  const from = Math.floor(samples.length * 0.2);
  const to = Math.floor(samples.length * 0.8);
  let crossings = 0;
  let energy = 0;
  for (let i = from; i < to; i += 1) {
    energy += samples[i]! * samples[i]!;
    if (i > from && samples[i - 1]! < 0 !== samples[i]! < 0) crossings += 1;
  }
  const seconds = (to - from) / sampleRate;
  const rms = Math.sqrt(energy / Math.max(1, to - from)) / 32768;
  return { hz: seconds > 0 ? crossings / 2 / seconds : 0, levelDb: rms > 0 ? 20 * Math.log10(rms) : -Infinity, seconds: samples.length / sampleRate };
}

/** The first video frame as a PNG. */
async function firstFrame(path: string, dir: string, name: string, signal: AbortSignal): Promise<string> {
  const png = join(dir, `${name}.png`);
  await runEngine({
    command: 'ffmpeg',
    args: ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', '-i', path, '-map', '0:v:0', '-frames:v', '1', '-update', '1', '-pix_fmt', 'rgb24', png],
    timeoutMs: TIMEOUT_MS,
    signal,
  });
  return png;
}

/**
 * Decodes a source ffmpeg cannot read into a file it can (a WAV next to the
 * source), naming the decoder for the report; undefined where ffprobe reads the source itself.
 */
export type SourceDecoder = (inputFormat: string, path: string, signal: AbortSignal) => Promise<{ path: string; reader: string } | undefined>;

/**
 * The media families' content check, read by ffprobe and ffmpeg: duration
 * within a tolerance, channels and sample rate kept (or what the target
 * format fixes), the tone's pitch and level, frame size and rate kept, and
 * the first frame compared by PSNR (inside the letterbox of fixed-size targets).
 */
export function mediaContentCheck(profileOf: (outputFormat: string) => OutputProfile | undefined, decodeSource?: SourceDecoder): ContentCheck {
  const sources = new Map<string, Promise<{ facts: MediaFacts; tone?: Tone; decodedBy?: string }>>();
  const readSource = (path: string, inputFormat: string, signal: AbortSignal) => {
    let known = sources.get(path);
    if (!known) {
      known = (async () => {
        const decoded = await decodeSource?.(inputFormat, path, signal);
        const readable = decoded?.path ?? path;
        const facts = await probeFacts(readable, signal);
        // A padded container's silence past its stated end is no part of the source (the engine cuts it too).
        const tone = facts.audio ? await measureTone(readable, dirname(path), signal, facts.audioEndSec) : undefined;
        return { facts, tone, decodedBy: decoded?.reader };
      })();
      sources.set(path, known);
      known.catch(() => sources.delete(path));
    }
    return known;
  };

  return async (pair, sourcePath, outputPath, signal) => {
    const findings = new Findings();
    const profile = profileOf(pair.outputFormat);
    if (!profile) return [{ check: 'profile', passed: false, detail: `no output profile for ${pair.outputFormat}` }];
    const scratch = await mkdtemp(join(dirname(outputPath), 'fidelity-'));
    try {
      const source = await readSource(sourcePath, pair.inputFormat, signal);
      if (source.decodedBy) findings.expect('reader', true, `source decoded by ${source.decodedBy}, then read by ffprobe; output read by ffprobe`);
      const output = await probeFacts(outputPath, signal);
      const { facts } = source;
      const outputTone = profile.audio && facts.audio && output.audio ? await measureTone(outputPath, scratch, signal) : undefined;
      // Decoded sound is the surest length; video streams are counted in frames.
      const sourceSec = source.tone?.seconds ?? facts.durationSec;
      const outputSec = outputTone && source.tone ? outputTone.seconds : output.durationSec;
      if (sourceSec !== undefined && outputSec !== undefined) {
        const tolerance = durationTolerance(output.audio?.sampleRate);
        findings.expect(
          'duration',
          Math.abs(outputSec - sourceSec) <= tolerance,
          `source ${sourceSec.toFixed(3)} s, output ${outputSec.toFixed(3)} s (at most ${tolerance.toFixed(2)} s apart)`,
        );
      } else {
        findings.fail('duration', `no duration could be read (source ${sourceSec ?? '?'}, output ${outputSec ?? '?'})`);
      }
      if (profile.audio && facts.audio) {
        checkAudio(findings, profile.audio, facts.audio, source.tone, output, outputTone);
      }
      if (profile.video && facts.video) {
        await checkVideo(findings, profile.video, facts.video, output, sourcePath, outputPath, scratch, signal);
      }
      return findings.list;
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  };
}

function checkAudio(
  findings: Findings,
  profile: NonNullable<OutputProfile['audio']>,
  source: NonNullable<MediaFacts['audio']>,
  sourceTone: Tone | undefined,
  output: MediaFacts,
  tone: Tone | undefined,
): void {
  if (!output.audio || !tone) {
    findings.fail('audio', 'the output has no audio stream');
    return;
  }
  const codec = AUDIO_CODECS[profile.codecs[0]] as { maxChannels?: number };
  const channels = profile.fixedChannels ?? Math.min(source.channels, codec.maxChannels ?? 8);
  findings.expect(
    'channels',
    output.audio.channels === channels,
    `source ${source.channels}, output ${output.audio.channels}, expected ${channels}${profile.fixedChannels ? ' (the format fixes it)' : ''}`,
  );
  const rates = sampleRates(profile.codecs[0]);
  const expected = DECODED_RATE[profile.codecs[0]] ?? profile.fixedSampleRate ?? (rates.includes(source.sampleRate) ? source.sampleRate : undefined);
  if (expected !== undefined) {
    findings.expect(
      'sample rate',
      output.audio.sampleRate === expected,
      `source ${source.sampleRate} Hz, output ${output.audio.sampleRate} Hz, expected ${expected}${profile.fixedSampleRate ? ' (the format fixes it)' : ''}`,
    );
  } else if (output.audio.sampleRate === source.sampleRate) {
    // A codec that takes any rate (PCM, FLAC, WavPack) keeps an odd one (the TX-16W's 33333 Hz) the option list does not offer.
    findings.expect('sample rate', true, `source ${source.sampleRate} Hz, not one the sample_rate option offers; output kept it`);
  } else {
    findings.expect(
      'sample rate',
      rates.includes(output.audio.sampleRate),
      `source ${source.sampleRate} Hz is not a rate of ${profile.codecs[0]}; output ${output.audio.sampleRate} Hz, one of ${rates.join(', ')}`,
    );
  }
  // The pitch the source plays at (the sample's 440 Hz, or what its format made of it) must be kept.
  const pitch = sourceTone && sourceTone.hz > 0 ? sourceTone.hz : TONE_HZ;
  findings.expect(
    'tone',
    Math.abs(tone.hz - pitch) <= pitch * TONE_TOLERANCE,
    `pitch ${tone.hz.toFixed(1)} Hz, the source's ${pitch.toFixed(1)} Hz (±${TONE_TOLERANCE * 100}%; the sample's tone is ${TONE_HZ} Hz)`,
  );
  if (sourceTone) {
    const change = tone.levelDb - sourceTone.levelDb;
    findings.expect(
      'level',
      Math.abs(change) <= LEVEL_TOLERANCE_DB,
      `source ${sourceTone.levelDb.toFixed(1)} dBFS, output ${tone.levelDb.toFixed(1)} dBFS (at most ${LEVEL_TOLERANCE_DB} dB apart)`,
    );
  }
}

async function checkVideo(
  findings: Findings,
  profile: NonNullable<OutputProfile['video']>,
  source: NonNullable<MediaFacts['video']>,
  output: MediaFacts,
  sourcePath: string,
  outputPath: string,
  scratch: string,
  signal: AbortSignal,
): Promise<void> {
  if (!output.video) {
    findings.fail('video', 'the output has no video stream');
    return;
  }
  const [width, height] = profile.fixedSize ?? [source.width, source.height];
  findings.expect(
    'frame size',
    output.video.width === width && output.video.height === height,
    `source ${source.width}x${source.height}, output ${output.video.width}x${output.video.height}, expected ${width}x${height}${profile.fixedSize ? ' (the format fixes it; letterboxed)' : ''}`,
  );
  const fps = profile.fixedFps ?? source.fps;
  findings.expect('frame rate', Math.abs(output.video.fps - fps) < 0.05, `source ${source.fps.toFixed(2)} fps, output ${output.video.fps.toFixed(2)} fps, expected ${fps}`);
  const sourceFrame = await readRgba(await firstFrame(sourcePath, scratch, 'source', signal));
  let outputFrame = await readRgba(await firstFrame(outputPath, scratch, 'output', signal));
  if (profile.fixedSize) outputFrame = await insideLetterbox(outputFrame, sourceFrame.width, sourceFrame.height, join(scratch, 'crop.png'));
  else if (outputFrame.width !== sourceFrame.width || outputFrame.height !== sourceFrame.height) outputFrame = await resized(outputFrame, sourceFrame.width, sourceFrame.height);
  const db = psnr(sourceFrame, outputFrame);
  findings.expect('first frame', db >= FIRST_FRAME_MIN_DB, `PSNR ${formatDb(db)}, at least ${FIRST_FRAME_MIN_DB} dB required`);
}

/** The picture area of a letterboxed frame, scaled back to the source's size. */
async function insideLetterbox(frame: Awaited<ReturnType<typeof readRgba>>, width: number, height: number, path: string) {
  const scale = Math.min(frame.width / width, frame.height / height);
  const [w, h] = [Math.round(width * scale), Math.round(height * scale)];
  const [left, top] = [Math.floor((frame.width - w) / 2), Math.floor((frame.height - h) / 2)];
  await sharp(frame.data, { raw: { width: frame.width, height: frame.height, channels: 4 } })
    .extract({ left, top, width: w, height: h })
    .png()
    .toFile(path);
  return resized(await readRgba(path), width, height);
}
