import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROFILE_DIR_VARIABLE, processLabel } from './cpu-profile-preload';
import { groupOf, readProfile, summarizeProfile } from './profile-summary';

describe('groupOf', () => {
  it.each([
    ['file:///app/node_modules/.pnpm/nats@2.29.3/node_modules/nats/lib/nats-base-client/protocol.js', 'publish', 'nats'],
    ['/app/node_modules/.pnpm/@bufbuild+protobuf@2.17.0/node_modules/@bufbuild/protobuf/dist/cjs/wire/binary-encoding.js', 'uint32', '@bufbuild/protobuf'],
    ['node:internal/stream_base_commons', 'writeGeneric', 'node:stream_base_commons'],
    ['node:net', 'Socket._writeGeneric', 'node:net'],
    ['', 'writev', 'native bindings'],
    ['', '(garbage collector)', 'garbage collection'],
    ['file:///repo/libs/messaging/dist/kv/kv-bucket.js', 'mutate', '@transmute/messaging'],
    ['file:///repo/services/job-orchestrator/dist/dispatch/job-driver.js', 'step', 'service job-orchestrator'],
  ])('puts %s (%s) in %s', (url, functionName, group) => {
    expect(groupOf(url, functionName)).toBe(group);
  });
});

describe('summarizeProfile', () => {
  it('sums self time by group and function, leaving idle and the start-up before the first tick out', () => {
    const frame = (functionName: string, url = '') => ({ functionName, url });
    const summary = summarizeProfile({
      nodes: [
        { id: 1, callFrame: frame('(root)') },
        { id: 2, callFrame: frame('(idle)') },
        { id: 3, callFrame: frame('publish', '/x/node_modules/nats/lib/a.js') },
        { id: 4, callFrame: frame('writev') },
        { id: 5, callFrame: frame('dispatch') },
      ],
      samples: [5, 2, 3, 3, 4, 2],
      timeDeltas: [180_000, 5_000, 1_000, 1_000, 2_000, 5_000],
    });
    expect(summary.busyMs).toBe(4);
    expect(summary.groups).toEqual([
      ['nats', 2],
      ['native bindings', 2],
    ]);
    expect(summary.functions[0]).toEqual(['publish (nats)', 2]);
  });
});

describe('cpu-profile-preload', () => {
  it('names services by their directory', () => {
    expect(processLabel('/repo/services/job-orchestrator/dist/main.js')).toBe('job-orchestrator');
    expect(processLabel('/repo/e2e/dist/bench/throughput.js')).toBe('throughput');
  });

  it('profiles a process between two signals and writes what it spent its time on', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'profile-'));
    try {
      // A busy loop in a named function (never optimised, so never inlined into its timer), so the profile must show it with most of the busy time.
      const script = 'function spin(){const end=Date.now()+5;let x=0;while(Date.now()<end)x+=Math.sqrt(x+1);return x}setInterval(spin,6);';
      const child = spawn(process.execPath, ['--no-opt', '--require', join(__dirname, '..', '..', '..', 'dist', 'bench', 'profiling', 'cpu-profile-preload.js'), '-e', script], {
        env: { ...process.env, [PROFILE_DIR_VARIABLE]: dir },
        stdio: 'inherit',
      });
      await new Promise((done) => setTimeout(done, 500));
      child.kill('SIGUSR2');
      await new Promise((done) => setTimeout(done, 1_500));
      child.kill('SIGUSR2');
      let files: string[] = [];
      for (let tries = 0; tries < 50 && files.length === 0; tries += 1) {
        await new Promise((done) => setTimeout(done, 100));
        files = await readdir(dir);
      }
      child.kill('SIGTERM');
      await once(child, 'exit');
      expect(files).toEqual([`node-${child.pid}.cpuprofile`]);
      const summary = summarizeProfile(await readProfile(join(dir, files[0]!)));
      expect(summary.busyMs).toBeGreaterThan(300);
      const spin = summary.functions.find(([name]) => name.startsWith('spin '));
      expect(spin?.[1]).toBeGreaterThan(0.5 * summary.busyMs);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
