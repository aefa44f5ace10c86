import { ServiceFailure, type TaskSpec } from '@transmute/contracts';

/*
 * What each connector needs from a task, with the defaults docs/decisions.md
 * lists. The gateway already answered 422 for a missing required field; these
 * checks repeat the ones a worker cannot do without (a message redelivered from
 * an older version, a direct publisher).
 */

export interface S3Target {
  bucket: string;
  region: string;
  /** Object key (import) or key / prefix ending in `/` (export); may be empty on export. */
  key: string;
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
  /** A custom S3-compatible endpoint; empty for AWS. */
  endpoint: string;
}

export interface SftpTarget {
  host: string;
  port: number;
  username: string;
  password: string;
  privateKey: string;
  /** Import: the remote file. Export: the remote directory. */
  path: string;
}

export interface GcsTarget {
  bucket: string;
  /** `key`, or `path` when no key was given. */
  key: string;
  projectId: string;
  clientEmail: string;
  privateKey: string;
}

export const DEFAULT_S3_REGION = 'us-east-1';
export const DEFAULT_SFTP_PORT = 22;

function required(spec: TaskSpec, value: string, field: string): string {
  if (!value) throw ServiceFailure.validation(`${spec.operation} needs ${field}`);
  return value;
}

export function s3TargetOf(spec: TaskSpec, { keyRequired }: { keyRequired: boolean }): S3Target {
  return {
    bucket: required(spec, spec.bucket, 'bucket'),
    region: spec.region || DEFAULT_S3_REGION,
    key: keyRequired ? required(spec, spec.key, 'key') : spec.key,
    accessKeyId: required(spec, spec.accessKeyId, 'access_key_id'),
    secretAccessKey: required(spec, spec.secretAccessKey, 'secret_access_key'),
    sessionToken: spec.sessionToken,
    endpoint: spec.endpoint,
  };
}

export function sftpTargetOf(spec: TaskSpec, { pathRequired }: { pathRequired: boolean }): SftpTarget {
  if (!spec.password && !spec.privateKey) throw ServiceFailure.validation(`${spec.operation} needs password or private_key`);
  return {
    host: required(spec, spec.host, 'host'),
    port: spec.port || DEFAULT_SFTP_PORT,
    username: required(spec, spec.username, 'username'),
    password: spec.password,
    privateKey: spec.privateKey,
    path: pathRequired ? required(spec, spec.path, 'path') : spec.path,
  };
}

export function gcsTargetOf(spec: TaskSpec, { keyRequired }: { keyRequired: boolean }): GcsTarget {
  const key = spec.key || spec.path;
  return {
    bucket: required(spec, spec.bucket, 'bucket'),
    key: keyRequired ? required(spec, key, 'key or path') : key,
    projectId: spec.projectId,
    clientEmail: required(spec, spec.clientEmail, 'client_email'),
    privateKey: required(spec, spec.privateKey, 'private_key'),
  };
}

/**
 * Where one exported file goes: `location` as given for a single file; a
 * location ending in `/` (or several files) is a prefix for each file's name.
 */
export function exportLocation(location: string, filename: string, fileCount: number): string {
  if (!location) return filename;
  if (location.endsWith('/')) return `${location}${filename}`;
  return fileCount > 1 ? `${location}/${filename}` : location;
}
