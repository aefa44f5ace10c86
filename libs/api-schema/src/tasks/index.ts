import { z } from 'zod';
import { ConvertTask } from './convert';
import { ExportGoogleCloudTask, ExportS3Task, ExportSftpTask, ImportGoogleCloudTask, ImportS3Task, ImportSftpTask } from './connectors';
import { ExportUrlTask } from './export-url';
import { ExportWebhookTask } from './export-webhook';
import { ImportBase64Task } from './import-base64';
import { ImportUploadTask } from './import-upload';
import { ImportUrlTask } from './import-url';

export * from './convert';
export * from './connectors';
export * from './export-url';
export * from './export-webhook';
export * from './import-base64';
export * from './import-upload';
export * from './import-url';
export { TaskInput } from './shared';

/** One schema per operation, in the spec's order. */
export const TASK_SCHEMAS = [
  ImportUploadTask,
  ImportUrlTask,
  ImportBase64Task,
  ImportS3Task,
  ImportSftpTask,
  ImportGoogleCloudTask,
  ConvertTask,
  ExportUrlTask,
  ExportS3Task,
  ExportSftpTask,
  ExportGoogleCloudTask,
  ExportWebhookTask,
] as const;

/** A task of a job create request, chosen by its `operation`. */
export const Task = z.discriminatedUnion('operation', TASK_SCHEMAS).meta({ id: 'Task' });
export type Task = z.infer<typeof Task>;
