import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const entry = join(__dirname, '..', 'dist', 'main.js');

describe('converter start-up', () => {
  it('refuses bad configuration with exit code 1, naming every wrong variable and no secret', () => {
    const result = spawnSync(process.execPath, [entry], {
      env: {
        PATH: process.env['PATH'],
        TRANSMUTE_CONVERTER_FAMILY: 'teleporter',
        TRANSMUTE_HTTP_PORT: 'eighty',
        TRANSMUTE_STORAGE_SIGNING_KEY: 'too-short-secret',
      },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    const line = JSON.parse(result.stderr.trim().split('\n').pop() ?? '{}') as { level: string; message: string };
    expect(line.level).toBe('fatal');
    expect(line.message).toContain('TRANSMUTE_CONVERTER_FAMILY: expected one of: image');
    expect(line.message).toContain('TRANSMUTE_HTTP_PORT');
    expect(line.message).toContain('TRANSMUTE_STORAGE_SIGNING_KEY: must be at least 32 characters');
    expect(result.stderr).not.toContain('too-short-secret');
  });
});
