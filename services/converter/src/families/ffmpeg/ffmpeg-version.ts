import { runEngine } from '../../engine/run-engine';

/** `ffmpeg 5.1.6-0+deb12u1`: what the manifest reports; also proves at start-up that ffmpeg runs. */
export async function ffmpegVersion(): Promise<string> {
  const { stdout } = await runEngine({ command: 'ffmpeg', args: ['-hide_banner', '-version'], timeoutMs: 30_000, signal: AbortSignal.timeout(30_000) });
  const version = /^ffmpeg version (\S+)/m.exec(stdout)?.[1];
  return version ? `ffmpeg ${version}` : 'ffmpeg';
}
