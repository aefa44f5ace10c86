import * as commands from './image-commands';

describe('image engine commands', () => {
  it.each([
    [
      'ImageMagick reads through an explicit coder, first frame only',
      commands.magickDecode('convert-im6.q16', 'PCX', '/w/in.pcx', '/w/out.png'),
      ['PCX:/w/in.pcx[0]', '-auto-orient', 'png:/w/out.png'],
    ],
    ['icons are capped at 256 px', commands.magickEncode('convert-im6.q16', 'ICO', '/w/s.png', '/w/o.ico', undefined), ['png:/w/s.png', '-resize', '256x256>', 'ICO:/w/o.ico']],
    ['quality goes to lossy ImageMagick writers', commands.magickEncode('convert-im6.q16', 'JP2', '/w/s.png', '/w/o.jp2', 40), ['png:/w/s.png', '-quality', '40', 'JP2:/w/o.jp2']],
    ['jxrlib quality is a fraction below 1', commands.jxrEncode('/w/s.tif', '/w/o.jxr', 80, false), ['-i', '/w/s.tif', '-o', '/w/o.jxr', '-q', '0.80']],
    ['jxrlib lossless is quality 1', commands.jxrEncode('/w/s.tif', '/w/o.jxr', 80, true), ['-i', '/w/s.tif', '-o', '/w/o.jxr', '-q', '1.0']],
    ['cjxl lossless is distance 0', commands.jxlEncode('/w/s.png', '/w/o.jxl', 80, true), ['/w/s.png', '/w/o.jxl', '--distance=0']],
    [
      'ffmpeg paths are file: URLs, never a protocol',
      commands.ffmpegDecode('/w/in.qoi', '/w/out.png'),
      ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', '-i', 'file:/w/in.qoi', '-frames:v', '1', '-update', '1', 'file:/w/out.png'],
    ],
  ])('%s', (_name, command, args) => {
    expect(command.args).toEqual(args);
  });

  it('escapes a PostScript string for viewjpeg.ps and reads only from the stage directory', () => {
    const { command, args } = commands.ghostscriptFromJpeg('pdfwrite', '/w/a(b)\\c.jpg', '/w', '/w/o.pdf');
    expect(command).toBe('gs');
    expect(args).toContain('-dSAFER');
    expect(args).toContain('--permit-file-read=/w/');
    expect(args.at(-1)).toMatch(/^\(\/w\/a\\\(b\\\)\\\\c\.jpg\) /);
  });
});
