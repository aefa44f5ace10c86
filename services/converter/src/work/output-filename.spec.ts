import { outputFilename } from './output-filename';

describe('outputFilename', () => {
  it.each([
    ['swaps the extension', 'photo.png', 'jpg', 'photo.jpg'],
    ['keeps inner dots', 'my.holiday.photo.png', 'webp', 'my.holiday.photo.webp'],
    ['names a nameless file', '', 'jpg', 'file.jpg'],
    ['keeps a dotfile whole', '.hidden', 'png', '.hidden.png'],
  ])('%s', (_name, source, format, expected) => {
    expect(outputFilename(source, format)).toBe(expected);
  });
});
