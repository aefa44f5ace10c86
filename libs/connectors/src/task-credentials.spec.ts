import { create } from '@bufbuild/protobuf';
import { TaskSpecSchema, TaskWorkSchema, credentialKey, sealCredentials, splitSealed } from '@transmute/contracts';
import { withOpenedCredentials } from './task-credentials';

const key = credentialKey('k'.repeat(32));

function sealedWork() {
  const { spec, sealed } = splitSealed(sealCredentials({ operation: 'export/sftp', host: 'files.example.com', password: 'hunter2-but-longer' }, key));
  return create(TaskWorkSchema, { taskName: 'deliver', spec: create(TaskSpecSchema, spec), sealedCredentials: sealed });
}

describe('withOpenedCredentials', () => {
  it('puts the sealed credentials back into a copy of the spec and leaves the message as it was', () => {
    const work = sealedWork();
    const opened = withOpenedCredentials(work, key);
    expect(opened.spec).toMatchObject({ operation: 'export/sftp', host: 'files.example.com', password: 'hunter2-but-longer' });
    expect(opened.sealedCredentials).toBe('');
    expect(work.spec?.password).toBe('');
  });

  it("fails the task with a message naming the key when the key differs from the orchestrator's", () => {
    expect(() => withOpenedCredentials(sealedWork(), credentialKey('x'.repeat(32)))).toThrow(
      "the credentials of task deliver could not be opened: TRANSMUTE_CREDENTIALS_KEY differs from the orchestrator's",
    );
  });

  it('passes work without credentials through untouched', () => {
    const work = create(TaskWorkSchema, { spec: create(TaskSpecSchema, { operation: 'import/url', url: 'https://example.com/a.png' }) });
    expect(withOpenedCredentials(work, key)).toBe(work);
  });
});
