import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { openApiDocument } from '@transmute/api-schema';

const SOURCE = join(__dirname, '..');

/** `v1/process/jobs` + `:jobId/webhooks` → `/v1/process/jobs/{jobId}/webhooks`, as OpenAPI writes it. */
function templateOf(...parts: string[]): string {
  const path = parts
    .flatMap((part) => part.split('/'))
    .filter(Boolean)
    .map((segment) => (segment.startsWith(':') ? `{${segment.slice(1)}}` : segment))
    .join('/');
  return `/${path}`;
}

/** Every route the gateway's controllers declare, read from Nest's own decorator metadata. */
function declaredRoutes(): string[] {
  const routes: string[] = [];
  const files = readdirSync(SOURCE, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.controller.ts'));
  for (const file of files) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const exported = require(join(SOURCE, file)) as Record<string, unknown>;
    for (const controller of Object.values(exported)) {
      if (typeof controller !== 'function' || Reflect.getMetadata(PATH_METADATA, controller) === undefined) continue;
      const prefixes = [Reflect.getMetadata(PATH_METADATA, controller) as string | string[]].flat();
      const prototype = controller.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(prototype)) {
        const handler = prototype[name];
        if (typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod].toLowerCase();
        const paths = [Reflect.getMetadata(PATH_METADATA, handler) as string | string[]].flat();
        for (const prefix of prefixes) for (const path of paths) routes.push(`${method} ${templateOf(prefix, path)}`);
      }
    }
  }
  return routes.sort();
}

describe('the OpenAPI document covers the API', () => {
  const routes = declaredRoutes();
  const v1 = routes.filter((route) => route.split(' ')[1]!.startsWith('/v1/'));
  const documented = Object.entries(openApiDocument().paths ?? {}).flatMap(([path, item]) => Object.keys(item ?? {}).map((method) => `${method} ${path}`));

  it('finds the controllers (a sanity check of the scan itself)', () => {
    expect(v1).toEqual(expect.arrayContaining(['post /v1/process/jobs', 'get /v1/process/jobs/{jobId}', 'get /v1/download/{token}']));
  });

  it('documents every /v1 route the gateway serves, with its method', () => {
    expect(v1.filter((route) => !documented.includes(route))).toEqual([]);
  });

  it('documents no /v1 route the gateway does not serve', () => {
    expect(documented.filter((route) => !v1.includes(route))).toEqual([]);
  });
});
