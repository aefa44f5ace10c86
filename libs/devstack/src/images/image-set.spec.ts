import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../repo-root';
import { imageSet } from './image-set';
import { readSkaffoldArtifacts } from './skaffold-artifacts';
import { selectImages } from './select-images';

describe('imageSet', () => {
  const root = repoRoot();
  const set = imageSet(root, 'v20.20.2');

  it('builds every skaffold artifact, tagged with the chart appVersion under docker.io', () => {
    const artifacts = readSkaffoldArtifacts(root);
    const apps = set.images.filter((image) => image.kind === 'app');

    expect(apps.map((image) => image.ref)).toEqual(artifacts.map((artifact) => `docker.io/${artifact.image}:0.1.0`));
    expect(apps.find((image) => image.name === 'converter-document')?.artifact).toEqual({
      image: 'transmute/converter-document',
      context: '.',
      dockerfile: 'Dockerfile',
      target: 'converter',
      buildArgs: { SERVICE: 'converter', FAMILY: 'document' },
    });
  });

  it('tags the servers with the versions the devstack runs, then the test helper', () => {
    expect(set.images.filter((image) => image.kind !== 'app').map((image) => image.ref)).toEqual([
      'docker.io/transmute/nats:2.15.2',
      'docker.io/transmute/ferretdb:1.24.0',
      expect.stringMatching(/^docker\.io\/transmute\/minio:0\.0\.0-\d{14}-[0-9a-f]{12}$/),
      'docker.io/transmute/test-helper:0.1.0',
    ]);
  });

  it('names the base after the node version it carries', () => {
    expect(set.nodeBase).toBe('localhost/transmute/node-base:20.20.2-bookworm');
  });

  it('selects images by name and rejects unknown names', () => {
    expect(selectImages(set.images, 'nats, gateway').map((image) => image.name)).toEqual(['gateway', 'nats']);
    expect(() => selectImages(set.images, 'nats,gatewya')).toThrow('unknown image(s) gatewya');
  });
});

describe('readSkaffoldArtifacts', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'skaffold-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const withSkaffold = (text: string): string => (writeFileSync(join(dir, 'skaffold.yaml'), text), dir);

  it('refuses an artifact built by anything but the docker builder', () => {
    expect(() => readSkaffoldArtifacts(withSkaffold('build:\n  artifacts:\n    - image: transmute/x\n      ko: {}\n'))).toThrow('only the docker builder is supported');
  });

  it('refuses templated build arguments, which skaffold would expand differently', () => {
    const text = 'build:\n  artifacts:\n    - image: transmute/x\n      docker:\n        target: service\n        buildArgs:\n          SERVICE: "{{.USER}}"\n';
    expect(() => readSkaffoldArtifacts(withSkaffold(text))).toThrow('build arg SERVICE must be a plain string');
  });

  it('fills skaffold defaults for context and dockerfile', () => {
    const text = 'build:\n  artifacts:\n    - image: transmute/x\n      docker:\n        target: service\n';
    expect(readSkaffoldArtifacts(withSkaffold(text))).toEqual([{ image: 'transmute/x', context: '.', dockerfile: 'Dockerfile', target: 'service', buildArgs: {} }]);
  });
});
