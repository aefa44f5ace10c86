import { openApiDocument } from '@transmute/api-schema';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

interface RouteMethods {
  template: string;
  pattern: RegExp;
  methods: string[];
}

let table: RouteMethods[] | undefined;

/** `/v1/process/jobs/{jobId}` → a regex matching one path segment per parameter. */
function patternOf(template: string): RegExp {
  const escaped = template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('[^/]+')}/?$`);
}

function routes(): RouteMethods[] {
  table ??= Object.entries(openApiDocument().paths ?? {}).map(([template, item]) => ({
    template,
    pattern: patternOf(template),
    methods: METHODS.filter((method) => item && method in item).map((method) => method.toUpperCase()),
  }));
  return table;
}

/** The document's path template a request path falls under (`/v1/process/jobs/{jobId}`); undefined outside the document. */
export function documentedTemplate(path: string): string | undefined {
  return routes().find((route) => route.pattern.test(path))?.template;
}

/**
 * The methods the API answers on `path`, read from the OpenAPI document (so
 * routes and document cannot disagree); empty when no route has that path.
 */
export function allowedMethods(path: string): string[] {
  const methods = routes().find((route) => route.pattern.test(path))?.methods ?? [];
  // Express answers HEAD wherever it answers GET.
  return methods.includes('GET') ? [...methods, 'HEAD'] : methods;
}
