import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exitedPid, runningProcess } from '../engine/owner-processes.test-support';
import { ScratchSpace } from './scratch-space';

/* A real work directory, and real processes for the owners: one still running, one that has exited. */

let workDir: string;
beforeEach(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'scratch-space-'));
});
afterEach(async () => {
  await rm(workDir, { recursive: true, force: true });
});

async function leftBy(pid: number | string, name = 'abc123'): Promise<string> {
  const directory = join(workDir, `task-${pid}-${name}`);
  await mkdir(directory);
  await writeFile(join(directory, 'input.png'), 'bytes of a task that never ended');
  return directory;
}

describe('ScratchSpace', () => {
  it("makes each task a directory named after this process, and removes it after the task's result", async () => {
    const space = new ScratchSpace({ workDir: join(workDir, 'made-on-first-use') });
    const directory = await space.make();
    expect(directory).toMatch(new RegExp(`/made-on-first-use/task-${process.pid}-\\w+$`));
    space.clearLater(directory);
    await space.cleared();
    expect(await readdir(join(workDir, 'made-on-first-use'))).toEqual([]);
  });

  it('removes at start the directories of converters that are gone and of a predecessor with its own pid, not those of a running one', async () => {
    const running = runningProcess();
    try {
      await leftBy(await exitedPid());
      await leftBy(process.pid);
      const live = await leftBy(running.pid);
      await writeFile(join(workDir, 'task-not-a-pid'), '');

      const space = new ScratchSpace({ workDir });
      await expect(space.clearAbandoned()).resolves.toBe(2);

      expect((await readdir(workDir)).sort()).toEqual([live.slice(workDir.length + 1), 'task-not-a-pid'].sort());
    } finally {
      running.kill();
    }
  });

  it('finds nothing to remove when the work directory does not exist yet', async () => {
    await expect(new ScratchSpace({ workDir: join(workDir, 'missing') }).clearAbandoned()).resolves.toBe(0);
  });
});
