import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { exitedPid, runningProcess } from '../../../engine/owner-processes.test-support';
import { clearAbandonedOffices } from './office-leftovers';
import { officeSocketPaths } from './office-sockets';

/*
 * The files a killed converter's pool leaves, made by hand in the real temp
 * and pipe directories (plain files stand in for the sockets: only names
 * matter), for a process that has exited and for one still running.
 */

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

async function poolFilesOf(pid: number): Promise<string[]> {
  const root = join(tmpdir(), `transmute-office-${pid}-spec`);
  await mkdir(join(root, 'profile-0', 'user'), { recursive: true });
  const [unoPipe, singleInstance] = officeSocketPaths(pathToFileURL(join(root, 'profile-0')).href, `transmute-office-${pid}-0-1700000000000`);
  await writeFile(unoPipe!, '');
  await writeFile(singleInstance!, '');
  return [root, unoPipe!, singleInstance!];
}

describe('clearAbandonedOffices', () => {
  const made: string[] = [];
  afterAll(async () => {
    await Promise.all(made.map((path) => rm(path, { recursive: true, force: true })));
  });

  it("removes the profiles and pipes of a converter that is gone, and keeps a running one's", async () => {
    const exited = await exitedPid();
    const running = runningProcess();
    try {
      const gone = await poolFilesOf(exited);
      const live = await poolFilesOf(running.pid);
      made.push(...gone, ...live);

      const removed = await clearAbandonedOffices();

      expect(removed).toEqual(expect.arrayContaining([gone[0], gone[1]]));
      for (const path of gone) expect(await exists(path)).toBe(false);
      for (const path of live) expect(await exists(path)).toBe(true);
    } finally {
      running.kill();
    }
  });
});
