import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts, LOOPBACK } from '../net/free-ports';
import { ManagedProcess } from '../process/managed-process';
import { defaultToolsBin, requireTool } from './local-tools';
import { httpStatus, stopOnce, waitUntilReady } from './test-servers-common';

export interface RunningMinio {
  /** http://127.0.0.1:<port>, the S3 endpoint. */
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  stop(): Promise<void>;
}

/**
 * A real MinIO (built by install-tools.sh from go-tools.txt) on a free loopback
 * port, with fresh root credentials and a throw-away data directory. The
 * console, update checks and anonymous usage reports are off.
 */
export async function startMinio(options: { toolsBin?: string } = {}): Promise<RunningMinio> {
  const minio = requireTool(options.toolsBin ?? defaultToolsBin(), 'minio');
  const dataDir = await mkdtemp(join(tmpdir(), 'transmute-minio-'));
  const [port, consolePort] = (await freePorts(2)) as [number, number];
  const accessKeyId = `minio${randomBytes(6).toString('hex')}`;
  const secretAccessKey = randomBytes(24).toString('hex');
  const managed = new ManagedProcess({
    name: 'minio',
    command: minio,
    args: ['server', join(dataDir, 'data'), '--address', `${LOOPBACK}:${port}`, '--console-address', `${LOOPBACK}:${consolePort}`, '--quiet'],
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: dataDir,
      MINIO_ROOT_USER: accessKeyId,
      MINIO_ROOT_PASSWORD: secretAccessKey,
      MINIO_BROWSER: 'off',
      MINIO_UPDATE: 'off',
      MINIO_CALLHOME_ENABLE: 'off',
      MINIO_REGION: 'us-east-1',
    },
    output: { kind: 'tail-only' },
  });
  const stop = stopOnce(managed, () => rm(dataDir, { recursive: true, force: true }));
  const endpoint = `http://${LOOPBACK}:${port}`;
  try {
    await waitUntilReady(managed, 'minio', async () => (await httpStatus(`${endpoint}/minio/health/ready`)) === 200);
  } catch (error) {
    await stop();
    throw error;
  }
  return { endpoint, region: 'us-east-1', accessKeyId, secretAccessKey, stop };
}
