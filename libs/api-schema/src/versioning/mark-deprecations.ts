import type { OpenApiLike } from './contract-surface';
import type { Deprecation } from './deprecations';

type Described = { deprecated?: boolean; description?: string };

const notice = (entry: Deprecation): string => `Deprecated on ${entry.deprecatedOn}; removed after ${entry.sunsetOn} (Sunset). Use instead: ${entry.replacement}`;

/** Marks every route and property the register lists as `deprecated`, with its dates, in a built document. */
export function markDeprecations<T extends OpenApiLike>(document: T, register: readonly Deprecation[]): T {
  for (const entry of register) {
    let target: Described | undefined;
    if ('route' in entry.target) {
      const [method = '', path = ''] = entry.target.route.split(' ');
      target = (document.paths as Record<string, Record<string, Described> | undefined> | undefined)?.[path]?.[method];
    } else {
      const schema = (document.components?.schemas as Record<string, { properties?: Record<string, Described> }> | undefined)?.[entry.target.schema];
      target = schema?.properties?.[entry.target.property];
    }
    // A target already removed (past its sunset) stays in the register as history.
    if (!target) continue;
    target.deprecated = true;
    target.description = target.description ? `${target.description} ${notice(entry)}` : notice(entry);
  }
  return document;
}
