import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { TaskResultSchema, UploadFormSchema } from '@transmute/contracts';
import { renderTaskResult } from './task-result-view';

const EXPIRES = '2026-01-02T03:04:05.000Z';
const form = create(UploadFormSchema, {
  url: 'https://gw/upload/1',
  method: 'PUT',
  parameters: {},
  headers: { 'Content-Type': 'application/octet-stream' },
  expiresAt: timestampFromDate(new Date(EXPIRES)),
});

describe('renderTaskResult', () => {
  it.each([
    ['export/url keeps url and filename', { url: 'u', filename: 'f' }, { url: 'u', filename: 'f' }],
    ['convert shows download_url', { downloadUrl: 'd' }, { download_url: 'd' }],
    ['failure shows error', { error: 'boom' }, { error: 'boom' }],
    [
      'several files',
      {
        url: 'u1',
        filename: 'f1',
        files: [
          { url: 'u1', filename: 'f1' },
          { url: 'u2', filename: 'f2' },
        ],
      },
      {
        url: 'u1',
        filename: 'f1',
        files: [
          { url: 'u1', filename: 'f1' },
          { url: 'u2', filename: 'f2' },
        ],
      },
    ],
    ['nothing set renders nothing', {}, {}],
  ])('%s, for both audiences', (_name, result, expected) => {
    const message = create(TaskResultSchema, result);
    expect(renderTaskResult(message, { uploadForm: true })).toEqual(expected);
    expect(renderTaskResult(message, { uploadForm: false })).toEqual(expected);
  });

  it('shows the upload form to the job view, with its expiry as ISO 8601', () => {
    expect(renderTaskResult(create(TaskResultSchema, { form }), { uploadForm: true })).toEqual({
      form: { url: 'https://gw/upload/1', method: 'PUT', parameters: {}, headers: { 'Content-Type': 'application/octet-stream' }, expiresAt: EXPIRES },
    });
  });

  it('leaves the upload form out of a webhook body', () => {
    expect(renderTaskResult(create(TaskResultSchema, { form, error: 'upload never arrived' }), { uploadForm: false })).toEqual({ error: 'upload never arrived' });
  });
});
