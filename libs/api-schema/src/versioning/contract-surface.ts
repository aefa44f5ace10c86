/**
 * The surface of the /v1 contract as a flat list of lines, read from the
 * OpenAPI document: each route, and each request and response field with its
 * JSON type and the component property it comes from. A line that leaves the
 * list is a route, a field or a type a client may rely on that went away.
 */

type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
};
type Operation = {
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
};
/** The parts of an OpenAPI 3.1 document read here (zod-openapi's OpenAPIObject is one). */
export type OpenApiLike = { paths?: object; components?: { schemas?: object } };

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
const REF_PREFIX = '#/components/schemas/';

/** Field lines gathered by where they are: the JSON types a field may take are joined into one line. */
type Fields = Map<string, { head: string; origin: string; types: Set<string> }>;

export function contractSurface(document: OpenApiLike): string[] {
  const lines = new Set<string>();
  const fields: Fields = new Map();
  for (const [path, item] of Object.entries((document.paths ?? {}) as Record<string, Record<string, unknown> | undefined>)) {
    if (!path.startsWith('/v1/')) continue;
    for (const method of METHODS) {
      const operation = item?.[method] as Operation | undefined;
      if (!operation) continue;
      const route = `${method} ${path}`;
      lines.add(`route ${route}`);
      const body = operation.requestBody?.content?.['application/json']?.schema;
      if (body) walk(document, body, { prefix: `request ${route}`, path: '', origin: '', refs: [] }, fields);
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        // Every error is the Error schema; its fields are listed once, on the first route that can answer it.
        const schema = response.content?.['application/json']?.schema;
        if (schema && Number(status) < 400) walk(document, schema, { prefix: `response ${route} ${status}`, path: '', origin: '', refs: [] }, fields);
      }
    }
  }
  const error = schemaNamed(document, 'Error');
  if (error) walk(document, error, { prefix: 'error', path: '', origin: 'Error', refs: ['Error'] }, fields);
  for (const { head, origin, types } of fields.values()) lines.add(`${head}: ${[...types].sort().join('|')}${origin ? ` (from ${origin})` : ''}`);
  return [...lines].sort();
}

interface Place {
  prefix: string;
  path: string;
  /** Where the field is declared: the nearest component and the path inside it. */
  origin: string;
  refs: string[];
}

function walk(document: OpenApiLike, schema: JsonSchema, place: Place, fields: Fields): void {
  let target = schema;
  // Fields below a component are declared in it; the field itself is declared where it was named.
  let innerOrigin = place.origin;
  let refs = place.refs;
  if (schema.$ref) {
    const name = schema.$ref.slice(REF_PREFIX.length);
    const resolved = schemaNamed(document, name);
    if (!resolved) throw new Error(`the document refers to ${schema.$ref}, which it does not define`);
    // A recursive schema is listed once.
    if (refs.includes(name)) return;
    target = resolved;
    innerOrigin = name;
    refs = [...refs, name];
  }
  const branches = [...(target.oneOf ?? []), ...(target.anyOf ?? []), ...(target.allOf ?? [])];
  if (branches.length > 0 && !target.type && !target.properties) {
    for (const branch of branches) walk(document, branch, { ...place, refs }, fields);
    return;
  }
  if (place.path) {
    const head = `${place.prefix} ${place.path}`;
    const key = `${head}\u0000${place.origin}`;
    const entry = fields.get(key) ?? { head, origin: place.origin, types: new Set<string>() };
    for (const type of typeOf(target).split('|')) entry.types.add(type);
    fields.set(key, entry);
  }
  for (const branch of branches) walk(document, branch, { ...place, refs }, fields);
  const inner = (suffix: string, name?: string): Place => ({
    prefix: place.prefix,
    path: name === undefined ? `${place.path}${suffix}` : join(place.path, name),
    origin: innerOrigin ? (name === undefined ? `${innerOrigin}${suffix}` : join(innerOrigin, name)) : '',
    refs,
  });
  for (const [name, property] of Object.entries(target.properties ?? {})) walk(document, property, inner('', name), fields);
  if (typeof target.additionalProperties === 'object') walk(document, target.additionalProperties, inner('{*}'), fields);
  if (target.items) walk(document, target.items, inner('[]'), fields);
}

const join = (path: string, name: string): string => (path ? `${path}.${name}` : name);

const schemaNamed = (document: OpenApiLike, name: string): JsonSchema | undefined => (document.components?.schemas as Record<string, JsonSchema> | undefined)?.[name];

function typeOf(schema: JsonSchema): string {
  if (schema.type) return [schema.type].flat().join('|');
  if (schema.const !== undefined) return schema.const === null ? 'null' : typeof schema.const;
  if (schema.properties) return 'object';
  return 'any';
}
