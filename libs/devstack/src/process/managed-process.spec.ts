import { ManagedProcess } from './managed-process';

function nodeProcess(name: string, script: string): ManagedProcess {
  return new ManagedProcess({ name, command: process.execPath, args: ['-e', script], output: { kind: 'tail-only' } });
}

describe('ManagedProcess', () => {
  it('stops a cooperative process with SIGTERM', async () => {
    const child = nodeProcess('polite', "console.log('up'); setInterval(() => {}, 1000)");

    await expect(child.stop(5_000)).resolves.toEqual({ code: null, signal: 'SIGTERM' });
    expect(child.hasExited).toBe(true);
  });

  it('escalates to SIGKILL when SIGTERM is ignored past the grace period', async () => {
    const child = nodeProcess('stubborn', "process.on('SIGTERM', () => {}); console.log('ready'); setInterval(() => {}, 1000)");
    await waitForOutput(child, 'ready');

    await expect(child.stop(200)).resolves.toEqual({ code: null, signal: 'SIGKILL' });
  });

  it('keeps the tail of stdout and stderr and reports an early exit', async () => {
    const child = nodeProcess('crashing', "console.log('one'); console.error('two'); process.exit(3)");

    await expect(child.exited).resolves.toEqual({ code: 3, signal: null });
    expect(child.outputTail(5).split('\n').sort()).toEqual(['one', 'two']);
    expect(() => child.assertRunning()).toThrow('crashing exited early (code 3, signal null)');
  });
});

async function waitForOutput(child: ManagedProcess, text: string): Promise<void> {
  while (!child.outputTail(10).includes(text)) await new Promise((resolve) => setTimeout(resolve, 20));
}
