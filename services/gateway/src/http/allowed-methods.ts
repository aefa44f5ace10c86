import { openApiDocument } from '@transmute/api-schema';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

interface RouteMethods {
  pattern: RegExp;
  methods: string[];
}

let table: RouteMethods[] | undefined;

/** `/v1/process/jobs/{jobId}` → a regex matching one path segment per parameter. */
function patternOf(template: string): RegExp {
  const escaped = template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('[^/]+')}/?$`);
}

/**
 * The methods the API answers on `path`, read from the OpenAPI document (so
 * routes and document cannot disagree); empty when no route has that path.
 */
export function allowedMethods(path: string): string[] {
  table ??= Object.entries(openApiDocument().paths ?? {}).map(([template, item]) => ({
    pattern: patternOf(template),
    methods: METHODS.filter((method) => item && method in item).map((method) => method.toUpperCase()),
  }));
  const methods = table.find((route) => route.pattern.test(path))?.methods ?? [];
  // Express answers HEAD wherever it answers GET.
  return methods.includes('GET') ? [...methods, 'HEAD'] : methods;
}
