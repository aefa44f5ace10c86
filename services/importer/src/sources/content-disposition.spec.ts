import { filenameFromContentDisposition } from './content-disposition';
import { baseName } from './source';

describe('filenameFromContentDisposition', () => {
  it.each([
    ['a quoted name', 'attachment; filename="report.pdf"', 'report.pdf'],
    ['a token name', 'attachment; filename=report.pdf', 'report.pdf'],
    ['an escaped quote', 'attachment; filename="a \\"b\\".txt"', 'a "b".txt'],
    ['filename* over filename', `attachment; filename="fallback.txt"; filename*=UTF-8''%E2%82%AC%20rates.txt`, '€ rates.txt'],
    ['ISO-8859-1 filename*', "attachment; filename*=iso-8859-1'en'%A3%20rates.txt", '£ rates.txt'],
    ['a path in the name', 'attachment; filename="../../etc/passwd"', 'passwd'],
    ['no filename', 'inline', ''],
    ['no header', undefined, ''],
  ])('reads %s', (_name, header, expected) => {
    expect(filenameFromContentDisposition(header)).toBe(expected);
  });
});

describe('baseName', () => {
  it.each([
    ['a URL path', '/files/photo%20one.png', 'photo one.png'],
    ['a key', 'in/sub/data.csv', 'data.csv'],
    ['a trailing slash', '/dir/', 'dir'],
    ['nothing', '/', ''],
  ])('takes the last segment of %s', (_name, path, expected) => {
    expect(baseName(path)).toBe(expected);
  });
});
