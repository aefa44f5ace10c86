import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/** The parts of an OpenAPI 3.1 document the validator reads. */
interface OpenApiDocument {
  paths?: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> } | undefined>>;
  components?: { schemas?: Record<string, unknown> };
}

export interface ExchangeToCheck {
  method: string;
  /** The request's path, without the query. */
  path: string;
  status: number;
  contentType: string | null;
  json: unknown;
  text: string;
}

const DOCUMENT_ID = 'openapi.json';
const pointer = (...parts: string[]) => parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/**
 * Checks every reply of the API against the served `/openapi.json`: the status
 * must be one the document gives for the operation, and a JSON body must match
 * that response's schema. Paths the document does not have (unknown routes,
 * wrong methods) must still answer errors in the Error shape.
 */
export class ResponseValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  private readonly routes: { pattern: RegExp; template: string }[];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly document: OpenApiDocument) {
    addFormats(this.ajv);
    this.ajv.addSchema(document, DOCUMENT_ID);
    this.routes = Object.keys(document.paths ?? {}).map((template) => ({
      template,
      pattern: new RegExp(
        `^${template
          .split(/\{[^}]+\}/)
          .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('[^/]+')}$`,
      ),
    }));
  }

  /** Problems with one exchange; empty when it keeps to the document. */
  problems(exchange: ExchangeToCheck): string[] {
    const method = exchange.method.toLowerCase();
    const template = this.routes.find((route) => route.pattern.test(exchange.path))?.template;
    const operation = template ? this.document.paths?.[template]?.[method] : undefined;
    if (!template || !operation) {
      // Outside the document: only errors are expected here, in the Error shape.
      if (exchange.status < 400) return [];
      return this.check(`${DOCUMENT_ID}#/components/schemas/Error`, exchange, 'Error');
    }
    const responses = operation.responses ?? {};
    const status = String(exchange.status);
    const response = responses[status] ?? responses['default'];
    if (!response) return [`${exchange.method} ${template}: status ${status} is not in the document (it lists ${Object.keys(responses).join(', ')})`];
    const content = response.content ?? {};
    const mediaTypes = Object.keys(content);
    if (mediaTypes.length === 0) return [];
    const mediaType = (exchange.contentType ?? '').split(';')[0]?.trim() ?? '';
    if (!mediaTypes.includes(mediaType)) return [`${exchange.method} ${template} ${status}: content type ${mediaType || '(none)'} is not one of ${mediaTypes.join(', ')}`];
    if (mediaType !== 'application/json') return [];
    const ref = `${DOCUMENT_ID}#/${pointer('paths', template, method, 'responses', response === responses[status] ? status : 'default', 'content', mediaType, 'schema')}`;
    return this.check(ref, exchange, `${exchange.method} ${template} ${status}`);
  }

  private check(ref: string, exchange: ExchangeToCheck, what: string): string[] {
    if (exchange.json === undefined) return [`${what}: body is not JSON: ${exchange.text.slice(0, 200)}`];
    let validate = this.compiled.get(ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: ref });
      this.compiled.set(ref, validate);
    }
    if (validate(exchange.json)) return [];
    return (validate.errors ?? []).map((error) => `${what}: body${error.instancePath} ${error.message ?? 'is invalid'} ${JSON.stringify(error.params)}`);
  }
}

/** A reply that breaks the OpenAPI document. */
export class ContractViolation extends Error {
  constructor(exchange: ExchangeToCheck, problems: string[]) {
    super(`${exchange.method} ${exchange.path} answered ${exchange.status} outside /openapi.json:\n  ${problems.join('\n  ')}\nbody: ${exchange.text.slice(0, 1000)}`);
    this.name = 'ContractViolation';
  }
}
