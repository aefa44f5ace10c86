import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_ENGINE_LIMITS, setEngineLimits } from './engine-limits';
import { runEngine } from './run-engine';

const never = () => new AbortController().signal;
/** Running, not merely a zombie waiting for a container's init to reap it. */
const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

describe('runEngine', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'run-engine-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  afterEach(() => setEngineLimits(DEFAULT_ENGINE_LIMITS));

  it('passes arguments as an array, never through a shell', async () => {
    const { stdout } = await runEngine({ command: 'printf', args: ['%s|', 'a b', '$(id)', ';rm -rf /'], timeoutMs: 5_000, signal: never() });
    expect(stdout).toBe('a b|$(id)|;rm -rf /|');
  });

  it('writes stdout to a file, bytes intact, when asked', async () => {
    const target = join(dir, 'stdout.bin');
    const { stdout } = await runEngine({ command: 'printf', args: ['\\377\\000\\n\\200'], stdoutFile: target, timeoutMs: 5_000, signal: never() });
    expect(stdout).toBe('');
    expect([...(await readFile(target))]).toEqual([0xff, 0x00, 0x0a, 0x80]);
  });

  it('reports lines of both streams, split at \\n and \\r', async () => {
    const out: string[] = [];
    const err: string[] = [];
    await runEngine({
      command: 'sh',
      args: ['-c', 'printf "one\\ntwo\\rthree"; printf "e1\\r\\ne2\\n" >&2'],
      timeoutMs: 5_000,
      signal: never(),
      onStdoutLine: (line) => out.push(line),
      onStderrLine: (line) => err.push(line),
    });
    expect(out).toEqual(['one', 'two', 'three']);
    expect(err).toEqual(['e1', 'e2']);
  });

  it('fails with the engine name, exit code and the last stderr lines', async () => {
    await expect(
      runEngine({ command: 'sh', args: ['-c', 'echo starting >&2; echo "cannot read input.xyz" >&2; exit 3'], timeoutMs: 5_000, signal: never() }),
    ).rejects.toMatchObject({ name: 'ServiceFailure', retryable: false, message: 'sh exited with code 3: starting | cannot read input.xyz' });
  });

  it('names a missing engine clearly', async () => {
    await expect(runEngine({ command: 'no-such-engine-xyz', args: [], timeoutMs: 5_000, signal: never() })).rejects.toMatchObject({
      message: 'the no-such-engine-xyz engine is not installed on this converter (not found on PATH)',
    });
  });

  it('kills the whole process group on timeout, children included', async () => {
    const pidFile = join(dir, 'child.pid');
    const started = Date.now();
    await expect(runEngine({ command: 'sh', args: ['-c', `sleep 30 & echo $! > ${pidFile}; wait`], timeoutMs: 500, signal: never() })).rejects.toMatchObject({
      retryable: false,
      message: 'sh did not finish within the time limit of 1 s',
    });
    expect(Date.now() - started).toBeLessThan(4_000);
    const child = Number(await readFile(pidFile, 'utf8'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(alive(child)).toBe(false);
  });

  it('caps a family-requested timeout at the configured ceiling', async () => {
    setEngineLimits({ timeoutMs: 300, memoryLimitMb: 0 });
    const started = Date.now();
    await expect(runEngine({ command: 'sleep', args: ['10'], timeoutMs: 60_000, signal: never() })).rejects.toThrow('time limit');
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('stops on abort as a retryable release', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    await expect(runEngine({ command: 'sleep', args: ['10'], timeoutMs: 60_000, signal: controller.signal })).rejects.toMatchObject({
      retryable: true,
      message: 'sleep was stopped: the conversion was cancelled',
    });
  });

  it('enforces the memory ceiling', async () => {
    const grab = ['-e', 'const b = Buffer.alloc(400 * 1024 * 1024, 1); console.log(b.length)'];
    // node reserves address space beyond what it touches, so the ceiling is generous and the allocation larger.
    const ok = await runEngine({ command: process.execPath, args: grab, timeoutMs: 20_000, memoryLimitMb: 0, signal: never() });
    expect(ok.stdout.trim()).toBe(String(400 * 1024 * 1024));
    await expect(runEngine({ command: process.execPath, args: grab, timeoutMs: 20_000, memoryLimitMb: 300, signal: never() })).rejects.toMatchObject({
      name: 'ServiceFailure',
      retryable: false,
    });
  });

  it("hides the converter's configuration and allocator tuning from engines", async () => {
    process.env['TRANSMUTE_TEST_SECRET'] = 'hunter2';
    process.env['MALLOC_MMAP_THRESHOLD_'] = '131072';
    try {
      const { stdout } = await runEngine({ command: 'env', args: [], env: { ENGINE_VAR: 'yes' }, timeoutMs: 5_000, signal: never() });
      expect(stdout).not.toContain('TRANSMUTE_');
      expect(stdout).not.toContain('MALLOC_');
      expect(stdout).toContain('ENGINE_VAR=yes');
    } finally {
      delete process.env['TRANSMUTE_TEST_SECRET'];
      delete process.env['MALLOC_MMAP_THRESHOLD_'];
    }
  });
});
