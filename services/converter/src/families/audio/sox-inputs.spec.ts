import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runEngine } from '../../engine/run-engine';
import { AudioFamily } from './audio.family';
import { writeSoxSample } from './audio.proof';
import { SOX_INPUTS } from './sox-formats';

/**
 * Every format only SoX reads, converted with the real engines (SoX decodes,
 * ffmpeg writes) and read back independently: ffprobe for the length, rate
 * and layout of the result, SoX's `stat` for the pitch of the 1 s 440 Hz tone
 * the sample holds. A missing engine fails these tests.
 */
describe('audio family: formats SoX reads', () => {
  const family = new AudioFamily();
  const signal = () => AbortSignal.timeout(60_000);
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sox-inputs-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const probe = async (path: string) => {
    const { stdout } = await runEngine({
      command: 'ffprobe',
      args: ['-v', 'error', '-show_entries', 'format=duration:stream=sample_rate,channels', '-of', 'json', path],
      timeoutMs: 30_000,
      signal: signal(),
    });
    const parsed = JSON.parse(stdout) as { format: { duration: string }; streams: { sample_rate: string; channels: number }[] };
    return { duration: Number(parsed.format.duration), rate: Number(parsed.streams[0]!.sample_rate), channels: parsed.streams[0]!.channels };
  };
  const pitch = async (path: string) => {
    // `stat` writes to stderr; the first channel alone, since a mix of phases blurs the estimate.
    const { stderr } = await runEngine({ command: 'sox', args: ['-V1', path, '-n', 'remix', '1', 'stat'], timeoutMs: 30_000, signal: signal() });
    return Number(/Rough\s+frequency:\s+(\d+)/.exec(stderr)?.[1]);
  };

  it.each(Object.keys(SOX_INPUTS))('%s → wav keeps the length, rate, channels and the tone', async (format) => {
    const sampleDir = await mkdtemp(join(dir, `${format}-`));
    const inputPath = await writeSoxSample(format, sampleDir, signal());
    const outputPath = join(sampleDir, 'out.wav');
    await family.convert({ inputPath, outputPath, inputFormat: format, outputFormat: 'wav', options: {}, signal: signal(), reportProgress: () => undefined });
    const result = await probe(outputPath);
    const { rate, channels } = SOX_INPUTS[format]!.sample;
    expect(result.duration).toBeCloseTo(1, 1);
    expect(result.channels).toBe(channels);
    // The Yamaha TX-16W stores 33333.3 Hz as one of its three fixed rates.
    expect(Math.abs(result.rate - rate)).toBeLessThan(1);
    expect(Math.abs((await pitch(outputPath)) - 440)).toBeLessThan(30);
  });

  it('a compressed target keeps the tone too (hcom → mp3)', async () => {
    const sampleDir = await mkdtemp(join(dir, 'mp3-'));
    const inputPath = await writeSoxSample('hcom', sampleDir, signal());
    const outputPath = join(sampleDir, 'out.mp3');
    await family.convert({
      inputPath,
      outputPath,
      inputFormat: 'hcom',
      outputFormat: 'mp3',
      options: { audio_bitrate: '128k' },
      signal: signal(),
      reportProgress: () => undefined,
    });
    const wav = join(sampleDir, 'back.wav');
    await runEngine({ command: 'ffmpeg', args: ['-v', 'error', '-i', outputPath, wav], timeoutMs: 30_000, signal: signal() });
    // MP3 frames are 1152 samples: the encoder pads the end by up to one frame and its delay.
    expect(Math.abs((await probe(outputPath)).duration - 1)).toBeLessThan(0.1);
    expect(Math.abs((await pitch(wav)) - 440)).toBeLessThan(30);
  });

  it('refuses a file that is not what its name says', async () => {
    const inputPath = join(dir, 'fake.8svx');
    await writeFile(inputPath, 'not an IFF file at all');
    await expect(
      family.convert({ inputPath, outputPath: join(dir, 'fake.wav'), inputFormat: '8svx', outputFormat: 'wav', options: {}, signal: signal(), reportProgress: () => undefined }),
    ).rejects.toThrow(/not a readable 8svx file/);
  });
});
