import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, LOOPBACK } from '../net/free-ports';
import { ManagedProcess } from '../process/managed-process';
import { defaultToolsBin, requireTool } from './local-tools';
import { httpStatus, stopOnce, waitUntilReady } from './test-servers-common';

export interface RunningFakeGcs {
  /** http://127.0.0.1:<port>: the JSON API endpoint (TRANSMUTE_GCS_API_ENDPOINT). */
  endpoint: string;
  /** Creates a bucket through the JSON API. */
  createBucket(name: string): Promise<void>;
  stop(): Promise<void>;
}

/** fake-gcs-server (built by install-tools.sh from go-tools.txt) over plain http on a free loopback port. */
export async function startFakeGcs(options: { toolsBin?: string } = {}): Promise<RunningFakeGcs> {
  const binary = requireTool(options.toolsBin ?? defaultToolsBin(), 'fake-gcs-server');
  const dataDir = await mkdtemp(join(tmpdir(), 'transmute-gcs-'));
  const port = await freePort();
  const endpoint = `http://${LOOPBACK}:${port}`;
  const managed = new ManagedProcess({
    name: 'fake-gcs-server',
    command: binary,
    args: [
      '-scheme',
      'http',
      '-host',
      LOOPBACK,
      '-port',
      String(port),
      '-backend',
      'filesystem',
      '-filesystem-root',
      join(dataDir, 'objects'),
      '-public-host',
      `${LOOPBACK}:${port}`,
      '-external-url',
      endpoint,
      '-log-level',
      'warn',
    ],
    output: { kind: 'tail-only' },
  });
  const stop = stopOnce(managed, () => rm(dataDir, { recursive: true, force: true }));
  try {
    await waitUntilReady(managed, 'fake-gcs-server', async () => (await httpStatus(`${endpoint}/storage/v1/b`)) === 200);
  } catch (error) {
    await stop();
    throw error;
  }
  const createBucket = async (name: string): Promise<void> => {
    const response = await fetch(`${endpoint}/storage/v1/b?project=transmute-test`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name }),
    });
    if (!response.ok) throw new Error(`fake-gcs-server did not create bucket ${name}: ${response.status} ${await response.text()}`);
  };
  return { endpoint, createBucket, stop };
}
