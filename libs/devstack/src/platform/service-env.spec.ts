import { generateSecrets } from './platform-secrets';
import { buildPlatformEnv, buildServiceEnv, withDatabase } from './service-env';

describe('buildPlatformEnv', () => {
  const secrets = generateSecrets();
  const input = {
    natsUrl: 'nats://127.0.0.1:4222',
    mongoUri: 'mongodb://127.0.0.1:27017/',
    gatewayPort: 8080,
    mcpPort: 8086,
    dataDir: '/data',
    secrets,
  };

  it('gives every service the infrastructure, storage, scratch space and keys', () => {
    expect(buildPlatformEnv(input)).toEqual({
      NODE_ENV: 'production',
      TRANSMUTE_NATS_URL: 'nats://127.0.0.1:4222',
      TRANSMUTE_MONGODB_URI: 'mongodb://127.0.0.1:27017/transmute',
      TRANSMUTE_HTTP_HOST: '127.0.0.1',
      TRANSMUTE_PUBLIC_URL: 'http://127.0.0.1:8080',
      TRANSMUTE_MCP_PUBLIC_URL: 'http://127.0.0.1:8086/mcp',
      TRANSMUTE_STORAGE_DRIVER: 'fs',
      TRANSMUTE_STORAGE_FS_ROOT: '/data/storage',
      TRANSMUTE_WORK_DIR: '/data/work',
      TRANSMUTE_STORAGE_SIGNING_KEY: secrets.storageSigningKey,
      TRANSMUTE_DOWNLOAD_TOKEN_KEY: secrets.downloadTokenKey,
      TRANSMUTE_CREDENTIALS_KEY: secrets.credentialsKey,
      TRANSMUTE_DEV_API_KEY: secrets.devApiKey,
      TRANSMUTE_LOG_LEVEL: 'info',
    });
  });

  it('lets extraEnv override and extend the defaults', () => {
    const env = buildPlatformEnv({ ...input, extraEnv: { TRANSMUTE_LOG_LEVEL: 'debug', TRANSMUTE_RETENTION: '1h' } });

    expect(env['TRANSMUTE_LOG_LEVEL']).toBe('debug');
    expect(env['TRANSMUTE_RETENTION']).toBe('1h');
  });
});

describe('buildServiceEnv', () => {
  it('drops inherited TRANSMUTE_* variables, keeps the rest, and adds the service port and its own variables', () => {
    const env = buildServiceEnv(
      { PATH: '/usr/bin', TRANSMUTE_STORAGE_DRIVER: 's3', TRANSMUTE_STRAY: 'x' },
      { TRANSMUTE_STORAGE_DRIVER: 'fs', TRANSMUTE_HTTP_PORT: 'ignored' },
      { port: 8090, env: { TRANSMUTE_CONVERTER_FAMILY: 'image' } },
    );

    expect(env).toEqual({
      PATH: '/usr/bin',
      TRANSMUTE_STORAGE_DRIVER: 'fs',
      TRANSMUTE_CONVERTER_FAMILY: 'image',
      TRANSMUTE_HTTP_PORT: '8090',
    });
  });
});

describe('withDatabase', () => {
  it.each([
    { scenario: 'trailing slash', uri: 'mongodb://h:1/', expected: 'mongodb://h:1/transmute' },
    { scenario: 'no trailing slash', uri: 'mongodb://h:1', expected: 'mongodb://h:1/transmute' },
    { scenario: 'options', uri: 'mongodb://h:1/?directConnection=true', expected: 'mongodb://h:1/transmute?directConnection=true' },
  ])('appends the database name: $scenario', ({ uri, expected }) => {
    expect(withDatabase(uri, 'transmute')).toBe(expected);
  });
});
