import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { convertFile, convertToNewFile, probeJson } from '../ffmpeg/media-family.test-support';
import { AudioFamily } from './audio.family';

const exec = promisify(execFile);

interface Probe {
  format: { duration: string };
  streams: { codec_type: string; codec_name: string; sample_rate?: string; channels?: number }[];
}

const probe = (path: string) => probeJson<Probe>(path, 'format=duration:stream=codec_type,codec_name,sample_rate,channels');

describe('AudioFamily (real ffmpeg)', () => {
  const family = new AudioFamily();
  let dir: string;
  let source: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'audio-family-'));
    source = join(dir, 'source.wav');
    // 5 s of stereo noise-like content (two tones and pink noise), so bitrates change the size.
    await exec('ffmpeg', [
      '-nostdin',
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'anoisesrc=color=pink:sample_rate=44100:duration=5:amplitude=0.3',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=660:sample_rate=44100:duration=5',
      '-filter_complex',
      '[0][1]amerge=inputs=2',
      '-c:a',
      'pcm_s16le',
      source,
    ]);
  }, 60_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const convert = async (outputFormat: string, options: Record<string, unknown> = {}, progress: number[] = []) => {
    const outputPath = await convertToNewFile(family, dir, { inputPath: source, inputFormat: 'wav', outputFormat, options, progress });
    const result = await probe(outputPath);
    return { size: (await stat(outputPath)).size, probe: result, audio: result.streams.find((s) => s.codec_type === 'audio')! };
  };

  it('converts wav to mp3 and reports progress up to 100', async () => {
    const progress: number[] = [];
    const { audio } = await convert('mp3', {}, progress);
    expect(audio).toMatchObject({ codec_name: 'mp3', sample_rate: '44100', channels: 2 });
    expect(progress.at(-1)).toBe(100);
  });

  it('honours audio_bitrate: 320 kbit/s is larger than 64', async () => {
    const low = await convert('mp3', { audio_bitrate: 64 });
    const high = await convert('mp3', { audio_bitrate: 320 });
    expect(high.size).toBeGreaterThan(low.size * 4);
  });

  it('honours sample_rate', async () => {
    expect((await convert('flac', { sample_rate: 22050 })).audio.sample_rate).toBe('22050');
    expect((await convert('ogg', { sample_rate: 48000 })).audio.sample_rate).toBe('48000');
  });

  it('honours channels', async () => {
    expect((await convert('m4a', { channels: 1 })).audio.channels).toBe(1);
  });

  it('honours audio_codec within what the container takes', async () => {
    expect((await convert('ogg', { audio_codec: 'opus' })).audio.codec_name).toBe('opus');
    expect((await convert('ogg', { audio_codec: 'flac' })).audio.codec_name).toBe('flac');
    expect((await convert('ogg', { audio_codec: 'aac' })).audio.codec_name).toBe('vorbis');
  });

  it('honours trim_start and trim_end', async () => {
    const { probe: result } = await convert('wav', { trim_start: 1, trim_end: 3 });
    expect(Number(result.format.duration)).toBeCloseTo(2, 1);
  });

  it('fails when trim_start is past the end, with the reason', async () => {
    await expect(convert('mp3', { trim_start: 60 })).rejects.toMatchObject({ retryable: false, message: expect.stringContaining('past the end') });
  });

  it('fails a corrupt input as a permanent error, then keeps converting', async () => {
    const broken = join(dir, 'broken.mp3');
    await writeFile(broken, Buffer.alloc(4096, 0x41));
    await expect(convertFile(family, { inputPath: broken, outputPath: join(dir, 'never.wav'), inputFormat: 'mp3', outputFormat: 'wav' })).rejects.toMatchObject({
      name: 'ServiceFailure',
      retryable: false,
    });
    expect((await convert('opus')).audio.codec_name).toBe('opus');
  });

  it('lists only the sample rates and bitrates the target codec takes', () => {
    const options = (output: string) => family.pairs().find((p) => p.inputFormat === 'wav' && p.outputFormat === output)!.options;
    const values = (output: string, name: string) =>
      options(output)
        .find((o) => o.name === name)
        ?.values.map((v) => v.value);
    // Opus always decodes at 48 kHz, so it offers no sample rate (narrowed by the option check).
    expect(values('opus', 'sample_rate')).toBeUndefined();
    expect(values('ac3', 'sample_rate')).toEqual(['32000', '44100', '48000']);
    expect(values('flac', 'audio_bitrate')).toBeUndefined();
    expect(values('ogg', 'audio_codec')).toEqual(['vorbis', 'opus', 'flac', 'speex']);
    expect(family.pairs().some((p) => p.inputFormat === 'aif' && p.outputFormat === 'aiff')).toBe(false);
  });
});
