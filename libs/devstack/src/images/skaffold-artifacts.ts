import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/** One image of skaffold.yaml's build.artifacts: built from the root Dockerfile. */
export interface SkaffoldArtifact {
  /** e.g. transmute/gateway */
  image: string;
  /** Build context, relative to the repository root. */
  context: string;
  dockerfile: string;
  target: string;
  buildArgs: Record<string, string>;
}

/**
 * The images skaffold.yaml lists, with their targets and build arguments: the
 * one list of Transmute images, read here so `make images` never keeps a
 * second one. Anything but the plain docker builder is refused rather than
 * built differently from what skaffold would build.
 */
export function readSkaffoldArtifacts(root: string): SkaffoldArtifact[] {
  const file = join(root, 'skaffold.yaml');
  const config = parse(readFileSync(file, 'utf8')) as { build?: { artifacts?: unknown } } | null;
  const artifacts = config?.build?.artifacts;
  if (!Array.isArray(artifacts) || artifacts.length === 0) throw new Error(`${file}: build.artifacts lists no image`);
  return artifacts.map((entry, index) => toArtifact(entry, `${file}: build.artifacts[${index}]`));
}

function toArtifact(entry: unknown, where: string): SkaffoldArtifact {
  const { image, context, docker } = (entry ?? {}) as { image?: unknown; context?: unknown; docker?: unknown };
  if (typeof image !== 'string' || image === '') throw new Error(`${where}: no image name`);
  if (docker === undefined || docker === null || typeof docker !== 'object') throw new Error(`${where} (${image}): only the docker builder is supported`);
  const { dockerfile, target, buildArgs } = docker as { dockerfile?: unknown; target?: unknown; buildArgs?: unknown };
  if (typeof target !== 'string' || target === '') throw new Error(`${where} (${image}): docker.target is required`);
  const args: Record<string, string> = {};
  for (const [name, value] of Object.entries((buildArgs ?? {}) as Record<string, unknown>)) {
    // skaffold's buildArgs may be templates ({{.ENV}}); these are plain strings.
    if (typeof value !== 'string' || value.includes('{{')) throw new Error(`${where} (${image}): build arg ${name} must be a plain string`);
    args[name] = value;
  }
  return {
    image,
    context: typeof context === 'string' && context !== '' ? context : '.',
    dockerfile: typeof dockerfile === 'string' && dockerfile !== '' ? dockerfile : 'Dockerfile',
    target,
    buildArgs: args,
  };
}
