import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LocalEndpoints, findLocalEndpoints, withLocalEndpoints } from './local-endpoints';

function endpoints(pid: number): LocalEndpoints {
  return {
    pid,
    baseUrl: 'http://127.0.0.1:8080',
    natsUrl: 'nats://127.0.0.1:41234',
    mongoUri: 'mongodb://127.0.0.1:41235/transmute',
    env: { TRANSMUTE_NATS_URL: 'nats://127.0.0.1:41234', TRANSMUTE_MONGODB_URI: 'mongodb://127.0.0.1:41235/transmute' },
  };
}

describe('local endpoints', () => {
  let repo: string;
  beforeEach(async () => {
    repo = await mkdtemp(join(tmpdir(), 'endpoints-spec-'));
    await mkdir(join(repo, '.transmute'));
    await mkdir(join(repo, 'services', 'gateway'), { recursive: true });
  });
  afterEach(() => rm(repo, { recursive: true, force: true }));

  it("finds the nearest file from a subfolder and fills in a live platform's variables under the environment's own", async () => {
    await writeFile(join(repo, '.transmute', 'endpoints.json'), JSON.stringify(endpoints(process.pid)));
    const lookup = findLocalEndpoints({}, join(repo, 'services', 'gateway'));
    expect(lookup).toMatchObject({ found: true, path: join(repo, '.transmute', 'endpoints.json'), stale: false });
    const env = withLocalEndpoints({ TRANSMUTE_NATS_URL: 'nats://10.0.0.1:4222', TRANSMUTE_MONGODB_URI: '', PATH: '/bin' }, lookup);
    expect(env).toEqual({
      TRANSMUTE_NATS_URL: 'nats://10.0.0.1:4222',
      TRANSMUTE_MONGODB_URI: 'mongodb://127.0.0.1:41235/transmute',
      PATH: '/bin',
    });
  });

  it('ignores the file of a platform that is no longer running', async () => {
    // A pid above the kernel's pid_max (4194304) never names a live process.
    await writeFile(join(repo, '.transmute', 'endpoints.json'), JSON.stringify(endpoints(4_194_305)));
    const lookup = findLocalEndpoints({}, repo);
    expect(lookup).toMatchObject({ found: true, stale: true });
    expect(withLocalEndpoints({ PATH: '/bin' }, lookup)).toEqual({ PATH: '/bin' });
  });

  it('reads only the file TRANSMUTE_ENDPOINTS_FILE names, when set', async () => {
    await writeFile(join(repo, '.transmute', 'endpoints.json'), JSON.stringify(endpoints(process.pid)));
    expect(findLocalEndpoints({ TRANSMUTE_ENDPOINTS_FILE: join(repo, 'missing.json') }, repo)).toEqual({ found: false });
  });

  it('refuses a file that is not an endpoints file, naming it', async () => {
    await writeFile(join(repo, '.transmute', 'endpoints.json'), JSON.stringify({ pid: 'x' }));
    expect(() => findLocalEndpoints({}, repo)).toThrow(`${join(repo, '.transmute', 'endpoints.json')} is not an endpoints file written by make up`);
  });
});
