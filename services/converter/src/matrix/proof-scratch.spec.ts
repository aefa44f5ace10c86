import { stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { proofScratch } from './proof-scratch';

describe('proofScratch', () => {
  it('makes one directory on first use and removes it, with what was made in it, on dispose', async () => {
    const scratch = proofScratch('transmute-scratch-spec-');
    const dir = await scratch.dir();
    expect(await scratch.dir()).toBe(dir);
    await writeFile(join(dir, 'sample.txt'), 'made');
    await scratch.dispose();
    await expect(stat(dir)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('disposes of nothing when it was never used', async () => {
    await expect(proofScratch('transmute-scratch-spec-').dispose()).resolves.toBeUndefined();
  });
});
