import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runEngine } from '../../engine/run-engine';
import { AUDIO_TARGETS } from './audio-formats';
import { AudioFamily } from './audio.family';
import { writeModSample } from './audio.proof';

/**
 * The ProTracker module the proof writes, checked first by libopenmpt's own
 * player (openmpt123, test-only) and then converted by ffmpeg to every audio
 * target; each result read back by ffprobe (length) and SoX (the pitch of the
 * tone): about a second of a ~436 Hz tone (A-2 at the Amiga's PAL clock).
 */
describe('audio family: tracker modules', () => {
  const family = new AudioFamily();
  const signal = () => AbortSignal.timeout(60_000);
  let dir: string;
  let module: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tracker-'));
    module = await writeModSample(dir);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('writes a module libopenmpt reads as ProTracker M.K., about a second long', async () => {
    const { stdout } = await runEngine({ command: 'openmpt123', args: ['--info', module], timeoutMs: 30_000, signal: signal() });
    expect(stdout).toMatch(/Type\.+: mod \(ProTracker MOD \(M\.K\.\)\)/);
    expect(stdout).toMatch(/Duration\.+: 00:00\.9[0-9]{2}/);
  });

  it.each([...AUDIO_TARGETS])('mod → %s keeps the tone and its length', async (outputFormat) => {
    const outputPath = join(dir, `out.${outputFormat}`);
    await family.convert({ inputPath: module, outputPath, inputFormat: 'mod', outputFormat, options: {}, signal: signal(), reportProgress: () => undefined });
    const { stdout } = await runEngine({
      command: 'ffprobe',
      args: ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', outputPath],
      timeoutMs: 30_000,
      signal: signal(),
    });
    // libopenmpt renders the last row's tail: 0.96 s of song, about 1.06 s of sound; codecs pad a frame more.
    expect(Number(stdout.trim())).toBeGreaterThan(0.9);
    expect(Number(stdout.trim())).toBeLessThan(1.3);
    const wav = join(dir, `back-${outputFormat}.wav`);
    await runEngine({ command: 'ffmpeg', args: ['-v', 'error', '-y', '-i', outputPath, '-ac', '1', wav], timeoutMs: 30_000, signal: signal() });
    const { stderr } = await runEngine({ command: 'sox', args: ['-V1', wav, '-n', 'stat'], timeoutMs: 30_000, signal: signal() });
    expect(Math.abs(Number(/Rough\s+frequency:\s+(\d+)/.exec(stderr)?.[1]) - 436)).toBeLessThan(20);
  });
});
