import { Task } from './index';

/** Which fields each connector requires (docs/decisions.md, "Sources and destinations"). */
describe('connector task schemas', () => {
  const s3 = { bucket: 'b', access_key_id: 'AKIA', secret_access_key: 's' };
  const sftp = { host: 'files.example.com', username: 'u', password: 'p' };
  const gcs = { bucket: 'b', client_email: 'sa@p.iam.gserviceaccount.com', private_key: 'k' };

  it.each([
    ['import/s3', { ...s3, key: 'in/a.png' }],
    ['import/sftp with a key', { ...sftp, password: undefined, private_key: 'k', path: '/in/a.png' }],
    ['import/googlecloud with path', { ...gcs, path: 'in/a.png' }],
    ['export/s3 without key', { ...s3, input: 'c' }],
    ['export/sftp without path', { ...sftp, input: 'c' }],
    ['export/googlecloud', { ...gcs, input: ['c'] }],
  ])('accepts %s', (name, fields) => {
    expect(Task.safeParse({ operation: name.split(' ')[0], ...fields }).success).toBe(true);
  });

  it.each([
    ['import/s3', { ...s3 }, 'key'],
    ['import/s3', { ...s3, key: 'a', access_key_id: undefined }, 'access_key_id'],
    ['import/s3', { ...s3, key: 'a', region: 'us-east-1.evil.com' }, 'region'],
    ['import/s3', { ...s3, key: 'a', endpoint: 'ftp://minio' }, 'endpoint'],
    ['export/s3', { ...s3, secret_access_key: undefined, input: 'c' }, 'secret_access_key'],
    ['import/sftp', { ...sftp }, 'path'],
    ['import/sftp', { ...sftp, password: undefined, path: '/a' }, 'password'],
    ['export/sftp', { ...sftp, host: undefined, input: 'c' }, 'host'],
    ['export/sftp', { ...sftp, port: 70000, input: 'c' }, 'port'],
    ['import/googlecloud', { ...gcs }, 'key'],
    ['export/googlecloud', { ...gcs, client_email: undefined, input: 'c' }, 'client_email'],
  ])('refuses %s without a valid %#: %s', (operation, fields, field) => {
    const parsed = Task.safeParse({ operation, ...fields });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.path.join('.'))).toContain(field);
  });
});
