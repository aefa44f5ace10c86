import { z } from 'zod';
import { optional } from '../common';
import { TaskInput, importFormatFields } from './shared';

/*
 * Cloud-storage imports and exports (issue 5 owns this file). The spec names
 * the fields but not which are required nor their defaults; docs/decisions.md
 * ("Sources and destinations") lists them, and these schemas are that list.
 * A missing required field is 422 at creation, naming task and field.
 * Credentials are used for the job only, sealed at rest, erased when it ends,
 * and never returned or logged.
 */

const text = () => optional(z.string().min(1));
const required = (description: string) => z.string().min(1).meta({ description });
const secret = (what: string) =>
  z
    .string()
    .min(1)
    .meta({ description: `${what}. Used for this job only; never returned.` });
const optionalSecret = (what: string) => text().meta({ description: `${what}. Used for this job only; never returned.` });

/** Region names are DNS labels (they end up in the AWS host name). */
const S3Region = optional(z.string().regex(/^[a-z0-9-]{1,32}$/)).meta({ description: 'Bucket region. Default us-east-1.' });
const S3Endpoint = optional(z.url({ protocol: /^https?$/ })).meta({
  description: 'A custom S3-compatible endpoint (http or https URL, path-style addressing). Public addresses only unless the operator allows private networks. Default: AWS.',
});

const s3Common = {
  bucket: required('Bucket name.'),
  region: S3Region,
  access_key_id: secret('Access key id'),
  secret_access_key: secret('Secret access key'),
  session_token: optionalSecret('Session token (temporary credentials)'),
  endpoint: S3Endpoint,
};

const sftpCommon = {
  host: required('Server host name or address (public addresses only unless the operator allows private networks).'),
  port: optional(z.number().int().min(1).max(65_535)).meta({ description: 'SSH port. Default 22.' }),
  username: required('Login name.'),
  password: optionalSecret('Password (give password or private_key)'),
  private_key: optionalSecret('Private key, OpenSSH or PEM (give password or private_key)'),
};
const needsPasswordOrKey = (task: { password?: string | null; private_key?: string | null }) => Boolean(task.password || task.private_key);
const passwordOrKey = { message: 'password or private_key is required', path: ['password'] };

const googleCloudCommon = {
  bucket: required('Bucket name.'),
  project_id: text().meta({ description: "Project id. Default: the service account's project." }),
  client_email: required('Service account e-mail.'),
  private_key: secret('Service account private key (PEM)'),
};
const needsKeyOrPath = (task: { key?: string | null; path?: string | null }) => Boolean(task.key || task.path);
const keyOrPath = { message: 'key or path is required', path: ['key'] };

const exportFields = {
  input: TaskInput.meta({ description: 'The convert task(s) whose results to deliver.' }),
  filename: optional(z.string().min(1).max(255)).meta({ description: "Name of the delivered file when there is one input. Default: the result's file name." }),
};

export const ImportS3Task = z
  .object({
    operation: z.literal('import/s3'),
    ...s3Common,
    key: required('Object key of the source.'),
    ...importFormatFields,
  })
  .meta({ id: 'ImportS3Task' });

export const ImportSftpTask = z
  .object({
    operation: z.literal('import/sftp'),
    ...sftpCommon,
    path: required('Remote path of the source file.'),
    ...importFormatFields,
  })
  .refine(needsPasswordOrKey, passwordOrKey)
  .meta({ id: 'ImportSftpTask' });

export const ImportGoogleCloudTask = z
  .object({
    operation: z.literal('import/googlecloud'),
    ...googleCloudCommon,
    key: text().meta({ description: 'Object name of the source (or give path).' }),
    path: text().meta({ description: 'Object name of the source, when key is not given.' }),
    ...importFormatFields,
  })
  .refine(needsKeyOrPath, keyOrPath)
  .meta({ id: 'ImportGoogleCloudTask' });

export const ExportS3Task = z
  .object({
    operation: z.literal('export/s3'),
    ...s3Common,
    key: text().meta({
      description: 'Object key of the result. Ending in "/" (or with several inputs): a prefix for each file name. Default: the file name.',
    }),
    ...exportFields,
  })
  .meta({ id: 'ExportS3Task' });

export const ExportSftpTask = z
  .object({
    operation: z.literal('export/sftp'),
    ...sftpCommon,
    path: text().meta({ description: 'Remote directory, created when missing. Default: the login directory.' }),
    ...exportFields,
  })
  .refine(needsPasswordOrKey, passwordOrKey)
  .meta({ id: 'ExportSftpTask' });

export const ExportGoogleCloudTask = z
  .object({
    operation: z.literal('export/googlecloud'),
    ...googleCloudCommon,
    key: text().meta({ description: 'Object name of the result. Ending in "/" (or with several inputs): a prefix for each file name. Default: the file name.' }),
    path: text().meta({ description: 'Same as key, when key is not given.' }),
    ...exportFields,
  })
  .meta({ id: 'ExportGoogleCloudTask' });
