import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { convertFile, convertToNewFile, probeJson } from '../ffmpeg/media-family.test-support';
import { VideoFamily } from './video.family';

const exec = promisify(execFile);

interface Probe {
  format: { duration: string; format_name: string };
  streams: { codec_type: string; codec_name: string; width?: number; height?: number; r_frame_rate?: string }[];
}

const probe = (path: string) => probeJson<Probe>(path, 'format=duration,format_name:stream=codec_type,codec_name,width,height,r_frame_rate');

const videoStream = (p: Probe) => p.streams.find((s) => s.codec_type === 'video')!;
const audioStream = (p: Probe) => p.streams.find((s) => s.codec_type === 'audio');

describe('VideoFamily (real ffmpeg)', () => {
  const family = new VideoFamily();
  let dir: string;
  let source: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'video-family-'));
    source = join(dir, 'source.mkv');
    // 4 s of a moving test pattern with a tone: enough detail for quality settings to change the size.
    await exec('ffmpeg', [
      '-nostdin',
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=320x240:rate=25:duration=4',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=44100:duration=4',
      '-c:v',
      'ffv1',
      '-c:a',
      'flac',
      source,
    ]);
  }, 60_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const convert = async (outputFormat: string, options: Record<string, unknown> = {}, progress: number[] = []) => {
    const outputPath = await convertToNewFile(family, dir, { inputPath: source, inputFormat: 'mkv', outputFormat, options, progress });
    return { path: outputPath, size: (await stat(outputPath)).size, probe: await probe(outputPath) };
  };

  it('converts mkv to mp4 as H.264 and AAC by default, reporting progress up to 100', async () => {
    const progress: number[] = [];
    const { probe: result } = await convert('mp4', {}, progress);
    expect([videoStream(result).codec_name, audioStream(result)?.codec_name]).toEqual(['h264', 'aac']);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(100);
  });

  it('honours video_codec and audio_codec within what the container takes', async () => {
    const { probe: result } = await convert('mkv', { video_codec: 'vp9', audio_codec: 'opus' });
    expect([videoStream(result).codec_name, audioStream(result)?.codec_name]).toEqual(['vp9', 'opus']);
  });

  it('honours crf: a lower CRF makes a larger file', async () => {
    const fine = await convert('mp4', { crf: 12 });
    const coarse = await convert('mp4', { crf: 40 });
    expect(fine.size).toBeGreaterThan(coarse.size * 1.5);
  });

  it('honours video_bitrate only with rate_control=bitrate', async () => {
    const low = await convert('mp4', { rate_control: 'bitrate', video_bitrate: 100, audio_bitrate: 64 });
    const high = await convert('mp4', { rate_control: 'bitrate', video_bitrate: 2000, audio_bitrate: 64 });
    const ignored = await convert('mp4', { rate_control: 'crf', video_bitrate: 100, audio_bitrate: 64 });
    expect(high.size).toBeGreaterThan(low.size * 3);
    expect(ignored.size).toBeGreaterThan(low.size * 1.5);
  });

  it('honours preset: ultrafast makes a larger file than slow at the same CRF', async () => {
    const fast = await convert('mp4', { preset: 'ultrafast' });
    const slow = await convert('mp4', { preset: 'slow' });
    expect(fast.size).toBeGreaterThan(slow.size);
  });

  it('honours width and height, keeping proportions when one is given', async () => {
    expect(videoStream((await convert('webm', { width: 160 })).probe)).toMatchObject({ width: 160, height: 120 });
    expect(videoStream((await convert('mp4', { width: 200, height: 100 })).probe)).toMatchObject({ width: 200, height: 100 });
  });

  it('honours fps', async () => {
    expect(videoStream((await convert('mp4', { fps: 50 })).probe).r_frame_rate).toBe('50/1');
  });

  it('honours trim_start and trim_end', async () => {
    const { probe: result } = await convert('mp4', { trim_start: 1, trim_end: 3 });
    expect(Number(result.format.duration)).toBeGreaterThan(1.8);
    expect(Number(result.format.duration)).toBeLessThan(2.3);
  });

  it('honours audio_bitrate when extracting the sound track', async () => {
    const low = await convert('mp3', { audio_bitrate: 64 });
    const high = await convert('mp3', { audio_bitrate: 320 });
    expect(low.probe.streams.map((s) => s.codec_type)).toEqual(['audio']);
    expect(high.size).toBeGreaterThan(low.size * 3);
  });

  it('honours sample_rate and channels of the sound track', async () => {
    const { stdout } = await exec('ffprobe', [
      '-v',
      'error',
      '-select_streams',
      'a:0',
      '-show_entries',
      'stream=sample_rate,channels',
      '-of',
      'csv=p=0',
      (await convert('mkv', { sample_rate: 22050, channels: 1 })).path,
    ]);
    expect(stdout.trim()).toBe('22050,1');
  });

  it('ignores options it does not know or cannot use', async () => {
    const { probe: result } = await convert('webm', { video_codec: 'h264', width: -5, fps: 7, colour: 'blue' });
    expect(videoStream(result)).toMatchObject({ codec_name: 'vp9', width: 320, height: 240 });
  });

  it('fails a corrupt input as a permanent error, then keeps converting', async () => {
    const broken = join(dir, 'broken.mp4');
    await writeFile(broken, 'this is not a video at all');
    await expect(convertFile(family, { inputPath: broken, outputPath: join(dir, 'never.mkv'), inputFormat: 'mp4', outputFormat: 'mkv' })).rejects.toMatchObject({
      name: 'ServiceFailure',
      retryable: false,
      message: expect.stringContaining('not a readable mp4 file'),
    });
    expect(videoStream((await convert('mkv')).probe).codec_name).toBe('h264');
  });

  it('declares codec values narrowed by the output format, and applies_when on exclusive settings', () => {
    const options = (input: string, output: string) => family.pairs().find((p) => p.inputFormat === input && p.outputFormat === output)!.options;
    const values = (input: string, output: string, name: string) =>
      options(input, output)
        .find((o) => o.name === name)
        ?.values.map((v) => v.value);
    expect(values('avi', 'webm', 'video_codec')).toEqual(['vp9', 'vp8', 'av1']);
    expect(values('avi', 'webm', 'audio_codec')).toEqual(['opus', 'vorbis']);
    expect(values('webm', 'mp4', 'video_codec')).toEqual(['h264', 'hevc', 'av1', 'vp9', 'mpeg4']);
    expect(options('mp4', 'mkv').find((o) => o.name === 'crf')?.appliesWhen).toEqual({ rate_control: 'crf' });
    expect(options('mp4', 'mkv').find((o) => o.name === 'video_bitrate')?.appliesWhen).toEqual({ rate_control: 'bitrate' });
    expect(options('mp4', 'mkv').find((o) => o.name === 'preset')?.appliesWhen).toEqual({});
    // CRF and presets are x264's and libvpx's: where the default codec has neither, they name the codec that does.
    expect(options('mkv', 'avi').find((o) => o.name === 'crf')?.appliesWhen).toEqual({ rate_control: 'crf', video_codec: 'h264' });
    expect(options('mkv', 'flv').find((o) => o.name === 'preset')?.appliesWhen).toEqual({ video_codec: 'h264' });
    expect(options('mkv', 'ogv').find((o) => o.name === 'crf')?.appliesWhen).toEqual({ rate_control: 'crf', video_codec: 'vp8' });
    expect(options('mkv', 'mpg').some((o) => o.name === 'crf' || o.name === 'preset')).toBe(false);
    expect(options('mp4', 'mp3').map((o) => o.name)).toEqual(['audio_bitrate', 'sample_rate', 'channels', 'trim_start', 'trim_end']);
    // Raw streams hold no sound: no audio targets are listed for them.
    expect(family.pairs().some((p) => p.inputFormat === 'h264' && p.outputFormat === 'mp3')).toBe(false);
    expect(family.pairs().some((p) => p.inputFormat === p.outputFormat)).toBe(false);
  });
});
