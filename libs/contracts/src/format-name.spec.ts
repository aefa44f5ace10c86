import { formatOfFilename, isFormatName, normaliseFormatName } from './format-name';

describe('the format-name rule', () => {
  it.each([
    ['lowercase', 'png', true],
    ['mixed case', 'JPeg', true],
    ['digits', 'mp3', true],
    ['sixteen characters', 'a'.repeat(16), true],
    ['seventeen characters', 'a'.repeat(17), false],
    ['empty', '', false],
    ['a dot', 'tar.gz', false],
    ['a dash', 'x-y', false],
    ['non-ASCII letters', 'pñg', false],
  ])('%s: %s is %s', (_name, value, expected) => {
    expect(isFormatName(value)).toBe(expected);
  });

  it('stores names lowercase and trimmed', () => {
    expect(normaliseFormatName(' PNG ')).toBe('png');
  });

  it.each([
    ['a plain extension', 'photo.png', 'png'],
    ['an uppercase extension', 'SCAN.PDF', 'pdf'],
    ['the last extension', 'archive.tar.gz', 'gz'],
    ['no extension', 'README', ''],
    ['a dotfile', '.bashrc', ''],
    ['a trailing dot', 'photo.', ''],
    ['an extension too long', `file.${'x'.repeat(17)}`, ''],
    ['an extension with a symbol', 'file.p$g', ''],
  ])('formatOfFilename: %s', (_name, filename, expected) => {
    expect(formatOfFilename(filename)).toBe(expected);
  });
});
