import { DownloadLinks } from './download-links';
import { DownloadTokens } from './download-tokens';

describe('DownloadLinks', () => {
  const key = 'k'.repeat(32);
  const links = new DownloadLinks({ downloadTokenKey: key, publicUrl: 'https://convert.example', fileRetentionSeconds: 600 });
  const tokenOf = (url: string) => new DownloadTokens(key).verify(url.slice('https://convert.example/v1/download/'.length), 1_000);

  it('signs a link the gateway accepts, for the file and account, until the retention period ends', () => {
    const url = links.link({ key: 'jobs/a/out.jpg', filename: 'out.jpg' }, 'acc', 1_000_000);
    expect(url.startsWith('https://convert.example/v1/download/')).toBe(true);
    expect(tokenOf(url)).toMatchObject({ key: 'jobs/a/out.jpg', filename: 'out.jpg', accountId: 'acc', expiresAtUnix: 1_600n });
  });

  it('answers an export of several files with a link each, the first repeated as url and filename', () => {
    const result = links.exportResult(
      'out',
      [
        { key: 'jobs/a/1.jpg', filename: '1.jpg' },
        { key: 'jobs/a/2.jpg', filename: '2.jpg' },
      ],
      'acc',
      1_000_000,
    );
    expect(result.files.map((file) => [file.filename, tokenOf(file.url)?.key])).toEqual([
      ['1.jpg', 'jobs/a/1.jpg'],
      ['2.jpg', 'jobs/a/2.jpg'],
    ]);
    expect([result.url, result.filename]).toEqual([result.files[0]!.url, '1.jpg']);
  });

  it('refuses an export with no file, naming the task', () => {
    expect(() => links.exportResult('out', [], 'acc')).toThrow('export task out has no file to export');
  });
});
