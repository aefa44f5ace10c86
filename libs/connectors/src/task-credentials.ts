import { clone } from '@bufbuild/protobuf';
import { ErrorCode, ServiceFailure, type TaskWork, TaskWorkSchema, openSealed } from '@transmute/contracts';

/**
 * The work with its sealed credentials opened into its spec, in memory only,
 * for the source or destination that connects with them. A key that differs
 * from the orchestrator's fails the task with a message saying so (retrying
 * would not help).
 */
export function withOpenedCredentials(work: TaskWork, key: Buffer): TaskWork {
  if (!work.sealedCredentials || !work.spec) return work;
  let credentials: ReturnType<typeof openSealed>;
  try {
    credentials = openSealed(work.sealedCredentials, key);
  } catch {
    throw new ServiceFailure(ErrorCode.INTERNAL, `the credentials of task ${work.taskName} could not be opened: TRANSMUTE_CREDENTIALS_KEY differs from the orchestrator's`);
  }
  const opened = clone(TaskWorkSchema, work);
  Object.assign(opened.spec!, credentials);
  opened.sealedCredentials = '';
  return opened;
}
