import { allowedMethods } from './allowed-methods';

describe('allowedMethods', () => {
  it.each([
    ['/v1/process/jobs', ['POST']],
    ['/v1/process/jobs/0123456789abcdef0123456789abcdef', ['GET', 'HEAD']],
    ['/v1/process/jobs/x/complete-upload', ['POST']],
    ['/v1/imports/x/content', ['PUT', 'POST']],
    ['/v1/formats', ['GET', 'HEAD']],
    ['/v1/nothing', []],
    ['/v1/process/jobs/a/b/c', []],
  ])('%s answers %j', (path, methods) => {
    expect(allowedMethods(path).sort()).toEqual([...methods].sort());
  });
});
