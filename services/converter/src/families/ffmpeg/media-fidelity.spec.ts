import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runEngine } from '../../engine/run-engine';
import { AUDIO_OUTPUTS } from '../audio/audio-formats';
import { VIDEO_OUTPUTS } from '../video/video-formats';
import { mediaContentCheck } from './media-fidelity';
import { writeMediaSample } from './media-proof';

/** The media content check must fail a truncated, silent, off-pitch or black output. */
describe('media content check', () => {
  let dir: string;
  const check = mediaContentCheck((format) => VIDEO_OUTPUTS[format] ?? AUDIO_OUTPUTS[format]);
  const signal = () => AbortSignal.timeout(60_000);
  const failed = (findings: { check: string; passed: boolean }[]) => findings.filter((finding) => !finding.passed).map((finding) => finding.check);
  const ffmpeg = (args: string[]) => runEngine({ command: 'ffmpeg', args: ['-nostdin', '-loglevel', 'error', '-y', ...args], timeoutMs: 60_000, signal: signal() });
  const tone = (name: string, seconds: number, hz = 440) => {
    const path = join(dir, name);
    return ffmpeg(['-f', 'lavfi', '-i', `sine=frequency=${hz}:sample_rate=44100:duration=${seconds}`, '-ac', '2', path]).then(() => path);
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'media-fidelity-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('passes a faithful copy and fails a truncated one', async () => {
    const source = await tone('source.wav', 1);
    expect(failed(await check({ inputFormat: 'wav', outputFormat: 'flac' }, source, await tone('copy.flac', 1), signal()))).toEqual([]);
    expect(failed(await check({ inputFormat: 'wav', outputFormat: 'flac' }, source, await tone('short.flac', 0.5), signal()))).toEqual(['duration']);
  });

  it('fails silence and another pitch', async () => {
    const source = await tone('source2.wav', 1);
    const silent = join(dir, 'silent.flac');
    await ffmpeg(['-f', 'lavfi', '-i', 'anullsrc=r=44100:cl=stereo', '-t', '1', silent]);
    expect(failed(await check({ inputFormat: 'wav', outputFormat: 'flac' }, source, silent, signal()))).toEqual(expect.arrayContaining(['tone', 'level']));
    expect(failed(await check({ inputFormat: 'wav', outputFormat: 'flac' }, source, await tone('high.flac', 1, 880), signal()))).toEqual(['tone']);
  });

  it('reads a GXF source to its stated end, not into the silence its last sound packet is padded with, and fails an output that keeps that silence', async () => {
    const gxfDir = join(dir, 'gxf');
    await mkdir(gxfDir);
    const source = await writeMediaSample('gxf', VIDEO_OUTPUTS['gxf']!, gxfDir, signal());
    const kept = join(dir, 'padded.mp3');
    await ffmpeg(['-i', source, '-map', '0:a:0', kept]);
    const findings = await check({ inputFormat: 'gxf', outputFormat: 'mp3' }, source, kept, signal());
    expect(failed(findings)).toEqual(expect.arrayContaining(['duration']));
    expect(findings.find((finding) => finding.check === 'duration')?.detail).toMatch(/^source 0\.9\d+ s/);
    const cut = join(dir, 'cut.mp3');
    await ffmpeg(['-i', source, '-map', '0:a:0', '-af', 'atrim=end=1', cut]);
    expect(failed(await check({ inputFormat: 'gxf', outputFormat: 'mp3' }, source, cut, signal()))).toEqual([]);
  });

  it('fails a video whose first frame is black, and one of another size', async () => {
    const source = join(dir, 'source.mkv');
    await ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=25:duration=1', '-c:v', 'ffv1', source]);
    const black = join(dir, 'black.mkv');
    await ffmpeg(['-f', 'lavfi', '-i', 'color=black:size=160x120:rate=25:duration=1', '-c:v', 'ffv1', black]);
    expect(failed(await check({ inputFormat: 'mkv', outputFormat: 'mkv' }, source, black, signal()))).toEqual(['first frame']);
    const small = join(dir, 'small.mkv');
    await ffmpeg(['-i', source, '-vf', 'scale=80:60', '-c:v', 'ffv1', small]);
    expect(failed(await check({ inputFormat: 'mkv', outputFormat: 'mkv' }, source, small, signal()))).toEqual(expect.arrayContaining(['frame size']));
  });
});
