import { stat } from 'node:fs/promises';
import { runEngine } from '../../engine/run-engine';
import type { PairDeclaration } from '../family';
import { Findings } from '../../matrix/fidelity/findings';
import type { OptionCheck, OptionRun, OptionValues } from '../../matrix/fidelity/option-checks';
import { formatDb, psnr, readRgba } from '../../matrix/fidelity/pixels';
import { probeFacts } from './media-fidelity';
import type { OutputProfile } from './media-profile';
import { writeMediaSample } from './media-proof';

/** ffprobe's codec name for option values that name a tag or a profile rather than a codec. */
const PROBED_AS: Record<string, string> = { divx: 'mpeg4', xvid: 'mpeg4', dnxhr: 'dnxhd' };
const TRIM_SOURCE_SEC = 3;

const size = async (path: string) => (await stat(path)).size;
const valuesOf = (pair: PairDeclaration, name: string) => pair.options.find((option) => option.name === name)?.values.map((value) => value.value) ?? [];
/** The codec another option needs on this pair (its applies_when), as option values. */
const codecFor = (pair: PairDeclaration, name: string) => {
  const codec = pair.options.find((option) => option.name === name)?.appliesWhen['video_codec'];
  return codec === undefined ? {} : { video_codec: codec };
};
const rangeOf = (pair: PairDeclaration, name: string) => {
  const option = pair.options.find((candidate) => candidate.name === name);
  return [Number(option?.min ?? 0), Number(option?.max ?? 0)] as const;
};

async function probe(path: string, signal: AbortSignal, stream: 'v' | 'a'): Promise<{ codec: string; bitRate: number }> {
  const { stdout } = await runEngine({
    command: 'ffprobe',
    args: ['-v', 'error', '-select_streams', `${stream}:0`, '-show_entries', 'stream=codec_name,bit_rate:format=bit_rate,duration', '-of', 'json', path],
    timeoutMs: 60_000,
    signal,
  });
  const parsed = JSON.parse(stdout) as { streams?: { codec_name?: string; bit_rate?: string }[]; format?: { bit_rate?: string } };
  return { codec: parsed.streams?.[0]?.codec_name ?? '', bitRate: Number(parsed.streams?.[0]?.bit_rate) || Number(parsed.format?.bit_rate) || 0 };
}

/** Bits per second of a stream, from its packets: reliable where containers state no bitrate. */
async function streamBitrate(path: string, stream: 'v' | 'a', signal: AbortSignal): Promise<number> {
  // JSON, not CSV: ffprobe writes a packet's fields in its own order, whatever -show_entries says.
  const { stdout } = await runEngine({
    command: 'ffprobe',
    args: ['-v', 'error', '-select_streams', `${stream}:0`, '-show_entries', 'packet=size,duration_time', '-of', 'json', path],
    timeoutMs: 60_000,
    signal,
  });
  const packets = (JSON.parse(stdout) as { packets?: { size?: string; duration_time?: string }[] }).packets ?? [];
  const bytes = packets.reduce((sum, packet) => sum + (Number(packet.size) || 0), 0);
  const seconds = packets.reduce((sum, packet) => sum + (Number(packet.duration_time) || 0), 0);
  const facts = await probeFacts(path, signal);
  // Ogg's packets state no sizes to ffprobe: an audio-only file's own size stands in (its container overhead is small).
  const measured = bytes > 0 ? bytes : (await stat(path)).size;
  return (measured * 8) / (seconds > 0.2 ? seconds : (facts.durationSec ?? 1));
}

async function firstFramePsnr(run: OptionRun, path: string, name: string): Promise<number> {
  const frame = async (file: string, label: string) => {
    const png = `${run.scratch}/${label}.png`;
    await runEngine({
      command: 'ffmpeg',
      args: ['-nostdin', '-loglevel', 'error', '-y', '-i', file, '-map', '0:v:0', '-frames:v', '1', '-update', '1', '-pix_fmt', 'rgb24', png],
      timeoutMs: 60_000,
      signal: run.signal,
    });
    return readRgba(png);
  };
  return psnr(await frame(run.source, 'source'), await frame(path, name));
}

/**
 * The media families' option promises. `video` says whether the family's
 * targets carry pictures; audio-only checks run for both families.
 */
export function mediaOptionChecks(profileOf: (format: string) => OutputProfile | undefined, inputs: readonly string[]): OptionCheck[] {
  const longSource = (format: string, dir: string, signal: AbortSignal) => {
    const profile = profileOf(format);
    if (!profile) throw new Error(`no sample recipe for ${format}`);
    return writeMediaSample(format, profile, dir, signal, TRIM_SOURCE_SEC);
  };
  const codecCheck = (option: 'video_codec' | 'audio_codec'): OptionCheck => ({
    option,
    promise: 'the stream is encoded with the chosen codec',
    inputs,
    runs: (pair) => {
      const values = valuesOf(pair, option);
      return [{ [option]: values[0] }, { [option]: values[values.length - 1] }] as OptionValues;
    },
    async verify(run, [first, second]) {
      const findings = new Findings();
      const stream = option === 'video_codec' ? 'v' : 'a';
      for (const [path, values] of [
        [run.first, first],
        [run.second, second],
      ] as const) {
        const wanted = String(values[option]);
        const { codec } = await probe(path, run.signal, stream);
        findings.expect(`codec ${wanted}`, codec === (PROBED_AS[wanted] ?? wanted), `ffprobe reads ${codec || 'no stream'}`);
      }
      return findings.list;
    },
  });

  return [
    codecCheck('video_codec'),
    codecCheck('audio_codec'),
    {
      option: 'crf',
      promise: 'a lower CRF gives a larger file closer to the source',
      inputs,
      runs: (pair) => {
        const [min, max] = rangeOf(pair, 'crf');
        return [{ crf: Math.round(min + (max - min) * 0.2) }, { crf: Math.round(min + (max - min) * 0.8) }];
      },
      async verify(run, [low, high]) {
        const findings = new Findings();
        const [big, small] = [await size(run.first), await size(run.second)];
        findings.expect('size', big > small, `crf ${String(low['crf'])}: ${big} bytes, crf ${String(high['crf'])}: ${small} bytes`);
        const [good, poor] = [await firstFramePsnr(run, run.first, 'low'), await firstFramePsnr(run, run.second, 'high')];
        findings.expect('PSNR', good > poor, `first frame ${formatDb(good)} at the lower CRF, ${formatDb(poor)} at the higher`);
        return findings.list;
      },
    },
    {
      option: 'rate_control',
      promise: 'bitrate mode follows the target bitrate; CRF mode lets it vary',
      inputs,
      // Both runs use the codec CRF needs (H.264 in AVI and FLV, VP8 in Ogg): with the default codec the CRF run would measure nothing.
      runs: (pair) => [
        { ...codecFor(pair, 'crf'), rate_control: 'crf', crf: rangeOf(pair, 'crf')[1] },
        { ...codecFor(pair, 'crf'), rate_control: 'bitrate', video_bitrate: 1500 },
      ],
      async verify(run) {
        const findings = new Findings();
        const [crf, target] = [await streamBitrate(run.first, 'v', run.signal), await streamBitrate(run.second, 'v', run.signal)];
        findings.expect(
          'bitrate',
          // A one-second 160x120 clip cannot use 1500 kbit/s (x264 gives about 530): the mode must still set the rate far above CRF's.
          target > crf * 3,
          `crf at its highest: ${Math.round(crf / 1000)} kbit/s; bitrate 1500: ${Math.round(target / 1000)} kbit/s`,
        );
        return findings.list;
      },
    },
    {
      option: 'video_bitrate',
      promise: 'a higher bitrate gives a higher measured bitrate',
      inputs,
      runs: [{ video_bitrate: 150 }, { video_bitrate: 1500 }],
      async verify(run) {
        const findings = new Findings();
        const [low, high] = [await streamBitrate(run.first, 'v', run.signal), await streamBitrate(run.second, 'v', run.signal)];
        findings.expect('bitrate', high > low * 2, `150 kbit/s asked: ${Math.round(low / 1000)} measured; 1500 asked: ${Math.round(high / 1000)} measured`);
        return findings.list;
      },
    },
    {
      option: 'preset',
      promise: 'a slower preset gives a smaller file at the same quality setting',
      inputs,
      runs: [{ preset: 'ultrafast' }, { preset: 'veryslow' }],
      async verify(run) {
        const findings = new Findings();
        const [fast, slow] = [await size(run.first), await size(run.second)];
        findings.expect('size', slow < fast, `ultrafast: ${fast} bytes, veryslow: ${slow} bytes`);
        return findings.list;
      },
    },
    {
      option: 'width',
      promise: 'the frame has that width, the height following',
      inputs,
      runs: [{}, { width: 80 }],
      async verify(run) {
        const findings = new Findings();
        const facts = await probeFacts(run.second, run.signal);
        findings.expect('width', facts.video?.width === 80 && facts.video.height === 60, `width 80 from 160x120: ${facts.video?.width}x${facts.video?.height}`);
        return findings.list;
      },
    },
    {
      option: 'height',
      promise: 'the frame has that height, the width following',
      inputs,
      runs: [{}, { height: 60 }],
      async verify(run) {
        const findings = new Findings();
        const facts = await probeFacts(run.second, run.signal);
        findings.expect('height', facts.video?.width === 80 && facts.video.height === 60, `height 60 from 160x120: ${facts.video?.width}x${facts.video?.height}`);
        return findings.list;
      },
    },
    {
      option: 'fps',
      promise: 'the result has that frame rate',
      inputs,
      runs: [{}, { fps: 50 }],
      async verify(run) {
        const findings = new Findings();
        const [before, after] = [await probeFacts(run.first, run.signal), await probeFacts(run.second, run.signal)];
        findings.expect('frame rate', Math.abs((after.video?.fps ?? 0) - 50) < 0.05, `without: ${before.video?.fps.toFixed(2)} fps, fps 50: ${after.video?.fps.toFixed(2)} fps`);
        return findings.list;
      },
    },
    {
      option: 'audio_bitrate',
      promise: 'a higher audio bitrate gives a higher measured bitrate',
      inputs,
      runs: (pair) => {
        const values = valuesOf(pair, 'audio_bitrate').map(Number);
        return [{ audio_bitrate: values[0] }, { audio_bitrate: values[values.length - 1] }];
      },
      async verify(run, [low, high]) {
        const findings = new Findings();
        const [a, b] = [await streamBitrate(run.first, 'a', run.signal), await streamBitrate(run.second, 'a', run.signal)];
        findings.expect(
          'bitrate',
          b > a * 1.3,
          `${String(low['audio_bitrate'])} kbit/s asked: ${Math.round(a / 1000)} measured; ${String(high['audio_bitrate'])} asked: ${Math.round(b / 1000)} measured`,
        );
        return findings.list;
      },
    },
    {
      option: 'sample_rate',
      promise: 'the sound has that sample rate',
      inputs,
      runs: (pair) => {
        const values = valuesOf(pair, 'sample_rate').map(Number);
        return [{}, { sample_rate: values.find((rate) => rate !== 44100 && rate >= 16000) ?? values[0] }];
      },
      async verify(run, [, asked]) {
        const findings = new Findings();
        const facts = await probeFacts(run.second, run.signal);
        findings.expect('sample rate', facts.audio?.sampleRate === Number(asked['sample_rate']), `asked ${String(asked['sample_rate'])} Hz, got ${facts.audio?.sampleRate} Hz`);
        return findings.list;
      },
    },
    {
      option: 'channels',
      promise: 'the sound has that many channels',
      inputs,
      runs: [{ channels: 2 }, { channels: 1 }],
      async verify(run) {
        const findings = new Findings();
        const [stereo, mono] = [await probeFacts(run.first, run.signal), await probeFacts(run.second, run.signal)];
        findings.expect('channels', stereo.audio?.channels === 2 && mono.audio?.channels === 1, `channels 2: ${stereo.audio?.channels}, channels 1: ${mono.audio?.channels}`);
        return findings.list;
      },
    },
    {
      option: 'trim_start',
      promise: 'the result starts that many seconds in',
      inputs,
      source: longSource,
      runs: [{}, { trim_start: 1 }],
      async verify(run) {
        const findings = new Findings();
        const [whole, trimmed] = [await probeFacts(run.first, run.signal), await probeFacts(run.second, run.signal)];
        const cut = (whole.durationSec ?? 0) - (trimmed.durationSec ?? 0);
        findings.expect('duration', Math.abs(cut - 1) <= 0.2, `whole ${whole.durationSec?.toFixed(2)} s, trim_start 1: ${trimmed.durationSec?.toFixed(2)} s`);
        return findings.list;
      },
    },
    {
      option: 'trim_end',
      promise: 'the result ends at that second',
      inputs,
      source: longSource,
      runs: [{}, { trim_end: 1 }],
      async verify(run) {
        const findings = new Findings();
        const [whole, trimmed] = [await probeFacts(run.first, run.signal), await probeFacts(run.second, run.signal)];
        findings.expect('duration', Math.abs((trimmed.durationSec ?? 0) - 1) <= 0.2, `whole ${whole.durationSec?.toFixed(2)} s, trim_end 1: ${trimmed.durationSec?.toFixed(2)} s`);
        return findings.list;
      },
    },
  ];
}
