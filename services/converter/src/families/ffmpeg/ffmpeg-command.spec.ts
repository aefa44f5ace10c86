import { AUDIO_OUTPUTS } from '../audio/audio-formats';
import { VIDEO_OUTPUTS } from '../video/video-formats';
import { ffmpegArgs } from './ffmpeg-command';
import type { MediaProbe, OutputProfile } from './media-profile';
import { mediaSettings } from './media-settings';

const source: MediaProbe = { durationSec: 10, fps: 25, hasVideo: true, hasAudio: true, audioChannels: 2 };

function args(format: string, options: Record<string, unknown> = {}, probe: MediaProbe = source): string[] {
  const profile: OutputProfile = VIDEO_OUTPUTS[format] ?? AUDIO_OUTPUTS[format]!;
  return ffmpegArgs({ inputPath: 'in', outputPath: 'out', profile, settings: mediaSettings(options, profile), source: probe });
}

/** The value after `flag`, or undefined when the flag is absent. */
const after = (list: string[], flag: string) => (list.includes(flag) ? list[list.indexOf(flag) + 1] : undefined);

describe('ffmpegArgs', () => {
  it('states the rate of a raw stream without timestamps before the input, and of no other', () => {
    const untimed = args('mp4', {}, { ...source, untimed: true });
    expect(untimed.slice(untimed.indexOf('-i') - 2, untimed.indexOf('-i'))).toEqual(['-r', '25']);
    expect(args('mp4').indexOf('-r')).toBe(-1);
  });

  it('never runs interactively and always names the muxer and the output last', () => {
    const list = args('mp4');
    expect(list.slice(0, 8)).toEqual(['-nostdin', '-hide_banner', '-nostats', '-loglevel', 'error', '-progress', 'pipe:1', '-y']);
    expect(list.slice(-3)).toEqual(['-f', 'mp4', 'out']);
  });

  it.each([
    ['mp4 defaults to H.264 at CRF 23 with the medium preset', 'mp4', {}, { '-c:v': 'libx264', '-crf': '23', '-preset': 'medium', '-c:a': 'aac', '-b:a': undefined }],
    ['a codec the container takes is used', 'mkv', { video_codec: 'vp9' }, { '-c:v': 'libvpx-vp9', '-crf': '32', '-b:v': '0' }],
    ['a codec the container does not take falls back to its default', 'webm', { video_codec: 'h264' }, { '-c:v': 'libvpx-vp9' }],
    ['bitrate rate control drops the CRF', 'mp4', { rate_control: 'bitrate', video_bitrate: 800 }, { '-b:v': '800k', '-crf': undefined }],
    ['a bitrate without bitrate rate control is ignored', 'mp4', { video_bitrate: 800 }, { '-b:v': undefined, '-crf': '23' }],
    ['VP8 holds every frame, key frames too, to the CRF', 'webm', { video_codec: 'vp8', crf: 30 }, { '-crf': '30', '-qmin': '30', '-b:v': '10M' }],
    ['VP9 takes the CRF alone', 'webm', { crf: 30 }, { '-crf': '30', '-qmin': undefined }],
    ['HEVC in MP4 is tagged hvc1', 'mp4', { video_codec: 'hevc' }, { '-c:v': 'libx265', '-tag:v': 'hvc1' }],
    ['a VP9 preset maps to cpu-used', 'webm', { preset: 'veryslow' }, { '-deadline': 'good', '-cpu-used': '2' }],
    ['an AV1 preset maps to the SVT-AV1 scale', 'mp4', { video_codec: 'av1', preset: 'ultrafast' }, { '-preset': '13' }],
    ['fps is passed as the output rate', 'mkv', { fps: 30 }, { '-r': '30' }],
    ['an fps outside the list is ignored', 'mkv', { fps: 7 }, { '-r': undefined }],
    ['MPEG-2 moves a 15 fps source to a standard rate', 'mpg', {}, { '-r': undefined }],
    ['trim start seeks before the input and trim end bounds the length', 'mkv', { trim_start: 2, trim_end: 5 }, { '-ss': '2', '-t': '3' }],
    ['a trim end before the start is ignored', 'mkv', { trim_start: 5, trim_end: 3 }, { '-ss': '5', '-t': undefined }],
    ['audio bitrate, rate and channels', 'mp3', { audio_bitrate: 96, sample_rate: 22050, channels: 1 }, { '-b:a': '96k', '-ar': '22050', '-ac': '1' }],
    ['a sample rate the codec cannot take is ignored', 'opus', { sample_rate: 44100 }, { '-ar': undefined }],
    ['lossless audio takes no bitrate', 'flac', { audio_bitrate: 96 }, { '-b:a': undefined }],
    ['telephony formats fix their rate and layout', 'tco', { sample_rate: 48000, channels: 2 }, { '-ar': '8000', '-ac': '1' }],
    ['FLV fixes MP3 to 44.1 kHz', 'flv', {}, { '-ar': '44100' }],
  ])('%s', (_name, format, options, expected) => {
    const list = args(format, options);
    for (const [flag, value] of Object.entries(expected)) expect([flag, after(list, flag)]).toEqual([flag, value]);
  });

  it('moves a 15 fps source to the nearest rate MPEG-2 codes', () => {
    expect(after(args('mpg', {}, { ...source, fps: 15 }), '-r')).toBe('24');
    expect(after(args('mpg', {}, { ...source, fps: 29.97 }), '-r')).toBeUndefined();
  });

  it('makes the frames of the asked rate with the fps filter, which variable-rate muxers (FLV, MPEG-TS, GIF) need', () => {
    for (const format of ['flv', 'ts', 'gif', 'mkv']) expect([format, after(args(format, { fps: 50 }), '-vf')]).toEqual([format, expect.stringMatching(/(^|,)fps=50$/)]);
    expect(after(args('mkv'), '-vf') ?? '').not.toContain('fps=');
  });

  it("holds libavcodec's own encoders to a tenth of the target bitrate, and leaves x264 its own rate control", () => {
    expect(after(args('avi', { rate_control: 'bitrate', video_bitrate: 150 }), '-bt')).toBe('15k');
    expect(after(args('mpg', { video_bitrate: 1500 }), '-bt')).toBe('150k');
    expect(after(args('mp4', { rate_control: 'bitrate', video_bitrate: 150 }), '-bt')).toBeUndefined();
    expect(after(args('avi'), '-bt')).toBeUndefined();
  });

  it("cuts a container's padded sound at its stated length (GXF), counted from a trimmed start, and leaves its video alone", () => {
    const padded: MediaProbe = { ...source, durationSec: 3, paddedAudio: true };
    expect(after(args('mp3', {}, padded), '-af')).toBe('atrim=end=3');
    expect(after(args('mp4', { trim_start: 1 }, padded), '-af')).toBe('atrim=end=2');
    expect(after(args('dv', {}, padded), '-af')).toBe('atrim=end=3,aresample=async=1:first_pts=0');
    expect(after(args('mp4', {}, padded), '-t')).toBeUndefined();
    expect(after(args('mp3'), '-af')).toBeUndefined();
  });

  it('scales keeping proportions when one side is given, then to the sides the codec needs', () => {
    expect(after(args('mp4', { width: 640 }), '-vf')).toBe('scale=640:-2,scale=trunc(iw/2)*2:trunc(ih/2)*2');
    expect(after(args('rm', {}), '-vf')).toBe('scale=trunc(iw/16)*16:trunc(ih/16)*16');
  });

  it('letterboxes into the one size a format takes and ignores a requested size', () => {
    const filter = after(args('h263', { width: 640 }), '-vf');
    expect(filter).toContain('scale=176:144:force_original_aspect_ratio=decrease');
    expect(filter).toContain('pad=176:144');
  });

  it('writes audio-only formats without video and video-only formats without audio', () => {
    expect(args('wav')).toContain('-vn');
    expect(args('gif')).toContain('-an');
  });

  it('keeps the source channel count, narrowed to what the encoder takes', () => {
    expect(after(args('flac', {}, { ...source, audioChannels: 6 }), '-ac')).toBe('6');
    expect(after(args('wma', {}, { ...source, audioChannels: 6 }), '-ac')).toBe('2');
    expect(after(args('wma', { channels: 1 }, { ...source, audioChannels: 6 }), '-ac')).toBe('1');
  });
});
