import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { leftBehindEntries } from './left-behind';
import { exitedPid, runningProcess } from './owner-processes.test-support';

/* Real processes for the owners: this one, a running one and one that has exited. */

const OWNED = /^owned-(\d+)-/;
let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'left-behind-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('leftBehindEntries', () => {
  it("names the entries of exited processes and of this process's pid, and keeps those of running ones and those without a pid", async () => {
    const gone = await exitedPid();
    const running = runningProcess();
    try {
      for (const name of [`owned-${gone}-a`, `owned-${process.pid}-b`, `owned-${running.pid}-c`, 'owned-x-d', `other-${gone}-e`]) await mkdir(join(directory, name));

      const found = await leftBehindEntries(directory, OWNED);

      expect(found.sort()).toEqual([`owned-${gone}-a`, `owned-${process.pid}-b`].sort());
    } finally {
      running.kill();
    }
  });

  it('finds nothing in a directory that does not exist, and says nothing of it', async () => {
    const unreadable = jest.fn();

    await expect(leftBehindEntries(join(directory, 'missing'), OWNED, unreadable)).resolves.toEqual([]);
    expect(unreadable).not.toHaveBeenCalled();
  });

  it('reports a directory it cannot read, and finds nothing in it', async () => {
    const file = join(directory, 'a-file');
    await writeFile(file, '');
    const unreadable = jest.fn();

    await expect(leftBehindEntries(file, OWNED, unreadable)).resolves.toEqual([]);
    expect(unreadable).toHaveBeenCalledWith(expect.objectContaining({ code: 'ENOTDIR' }));
  });
});
