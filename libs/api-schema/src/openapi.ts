import { z } from 'zod';
import { type ZodOpenApiObject, type ZodOpenApiOperationObject, type ZodOpenApiResponsesObject, createDocument } from 'zod-openapi';
import { FormatsQuery, FormatList, OptionList, OptionsQuery } from './catalogue';
import { ErrorBody, Id } from './common';
import { Import, ImportContentQuery, ImportReceived } from './imports';
import { Job, JobCreateBody } from './jobs';
import { type Deprecation, DEPRECATIONS, contractSurface, deprecationOf } from './versioning';
import { markDeprecations } from './versioning/mark-deprecations';
import { WebhookDeliveryList } from './webhook-deliveries';

export const API_VERSION = '1.0.0';

/** What each error status means on this API (spec "Errors"). */
const ERROR_MEANINGS = {
  400: 'A parameter or the body is missing or malformed.',
  401: 'API key missing or wrong (or upload token used or wrong).',
  402: 'Conversion quota exhausted.',
  403: 'The key is restricted to other IP addresses.',
  404: 'No such resource (job, import, file, format or pair).',
  409: 'The job is not in a state that allows this.',
  413: 'The body is larger than the ceiling.',
  422: 'The job does not validate; the message names the rule and the task.',
  429: 'More than 60 requests per minute on this key; retry_after says when to try again.',
  503: 'A service this request needs (catalogue, job store, import store) did not answer.',
} as const;
type ErrorStatus = keyof typeof ERROR_MEANINGS;

const json = <T extends z.ZodType>(schema: T) => ({ content: { 'application/json': { schema } } });

function responses(success: ZodOpenApiResponsesObject, errors: ErrorStatus[]): ZodOpenApiResponsesObject {
  const all: Record<string, unknown> = { ...success };
  for (const status of errors) all[String(status)] = { description: ERROR_MEANINGS[status], ...json(ErrorBody) };
  return all as ZodOpenApiResponsesObject;
}

/** Errors any keyed call may get before it reaches its own logic. */
const KEYED: ErrorStatus[] = [401, 403, 429];
const jobIdParam = { path: z.object({ jobId: Id.meta({ description: 'The job id.' }) }) };
const importIdParam = z.object({ importId: Id.meta({ description: 'The import id.' }) });

/**
 * OpenAPI links: how one reply's values feed the next call. They document the
 * flow (create → start → poll; import → send the bytes) and let a stateful
 * test client (schemathesis) chain real calls instead of guessing ids.
 */
const jobLinks = {
  getJob: { operationId: 'getJob', parameters: { jobId: '$response.body#/id' }, description: 'Poll the job.' },
  completeUpload: { operationId: 'completeUpload', parameters: { jobId: '$response.body#/id' }, description: 'Start the job once its bytes arrived.' },
  listWebhookDeliveries: { operationId: 'listWebhookDeliveries', parameters: { jobId: '$response.body#/id' }, description: "Read the job's webhook deliveries." },
};
const importLinks = {
  putImportContent: {
    operationId: 'putImportContent',
    parameters: { importId: '$response.body#/id', token: '$response.body#/upload/token' },
    description: 'Send the bytes with the one-use token.',
  },
  postImportContent: {
    operationId: 'postImportContent',
    parameters: { importId: '$response.body#/id', token: '$response.body#/upload/token' },
    description: 'Send the bytes with the one-use token.',
  },
  createJob: {
    operationId: 'createJob',
    requestBody: { import_id: '$response.body#/id', input_format: 'png', output_format: 'jpg' },
    description: 'Build a job around the import (it waits for the bytes).',
  },
};

const importContent: Omit<ZodOpenApiOperationObject, 'operationId'> = {
  summary: "Send an import's bytes through the API (proxy route)",
  description: 'The raw body is streamed to storage. Authenticate with the one-use token query parameter or the API key.',
  security: [{ bearer: [] }, { apiKey: [] }, { uploadToken: [] }],
  requestParams: { path: importIdParam, query: ImportContentQuery },
  requestBody: { required: true, content: { 'application/octet-stream': { schema: z.string().meta({ format: 'binary' }) } } },
  responses: responses({ 200: { description: 'The file arrived.', ...json(ImportReceived) } }, [400, 401, 403, 404, 413, 429, 503]),
};

const document: ZodOpenApiObject = {
  openapi: '3.1.0',
  info: {
    title: 'Transmute API',
    version: API_VERSION,
    description: 'Asynchronous file conversion: create a job (import, convert, export tasks), send the bytes, start it, poll it, download the result.',
    // The license the API description is published under (docs/decisions.md, "OpenAPI lint"): the owner confirms it.
    license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
  },
  // Relative: the gateway serves the document at its root, and puts its public URL here when it serves it.
  servers: [{ url: '/', description: 'The installation that serves this document' }],
  security: [{ bearer: [] }, { apiKey: [] }],
  components: {
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>' },
      apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      uploadToken: { type: 'apiKey', in: 'query', name: 'token', description: 'One-use upload token of an import.' },
    },
  },
  paths: {
    '/v1/formats': {
      get: {
        operationId: 'listFormats',
        summary: 'Readable formats, or the targets of one input format',
        requestParams: { query: FormatsQuery },
        responses: responses({ 200: { description: 'The format list.', ...json(FormatList) } }, [400, ...KEYED, 404, 503]),
      },
    },
    '/v1/options': {
      get: {
        operationId: 'listOptions',
        summary: 'The settings one conversion accepts',
        requestParams: { query: OptionsQuery },
        responses: responses({ 200: { description: 'The option list.', ...json(OptionList) } }, [400, ...KEYED, 404, 503]),
      },
    },
    '/v1/process/jobs': {
      post: {
        operationId: 'createJob',
        summary: 'Create a job',
        description:
          "sandbox: true needs no key and answers 200 with a simulated finished job; a key sent along must be right (401) and the call counts against its rate limit, a keyless one against its address's (429 past either).",
        security: [{ bearer: [] }, { apiKey: [] }, {}],
        requestBody: { required: true, ...json(JobCreateBody) },
        responses: responses(
          {
            200: { description: 'Sandbox: the simulated finished job.', ...json(Job) },
            201: { description: 'The job, waiting_upload, with an upload form on each import/upload task.', ...json(Job), links: jobLinks },
          },
          [400, ...KEYED, 402, 413, 422, 503],
        ),
      },
    },
    '/v1/process/jobs/{jobId}': {
      get: {
        operationId: 'getJob',
        summary: 'A job with its tasks and results',
        requestParams: jobIdParam,
        responses: responses({ 200: { description: 'The job.', ...json(Job), links: { completeUpload: jobLinks.completeUpload } } }, [...KEYED, 404, 503]),
      },
    },
    '/v1/process/jobs/{jobId}/complete-upload': {
      post: {
        operationId: 'completeUpload',
        summary: 'Start the job',
        description: '409 when the job is past waiting_upload, or when an import/upload task has not received its bytes (the message names them).',
        requestParams: jobIdParam,
        responses: responses({ 200: { description: 'The job, queued.', ...json(Job), links: { getJob: jobLinks.getJob } } }, [...KEYED, 404, 409, 503]),
      },
    },
    '/v1/process/jobs/{jobId}/events': {
      get: {
        operationId: 'jobEvents',
        summary: 'The job on every status change, as server-sent events',
        requestParams: jobIdParam,
        responses: responses(
          {
            200: {
              description: 'Each event carries the job as GET /v1/process/jobs/{jobId} answers it; the stream ends with the job.',
              content: { 'text/event-stream': { schema: z.string() } },
            },
          },
          [...KEYED, 404, 503],
        ),
      },
    },
    '/v1/process/jobs/{jobId}/webhooks': {
      get: {
        operationId: 'listWebhookDeliveries',
        summary: "The job's webhook deliveries and their attempts",
        description: "One entry per target (export/webhook tasks and webhook_url), with every attempt made so far. Another account's job is 404.",
        requestParams: jobIdParam,
        responses: responses({ 200: { description: 'The delivery log.', ...json(WebhookDeliveryList) } }, [...KEYED, 404, 503]),
      },
    },
    '/v1/imports': {
      post: {
        operationId: 'createImport',
        summary: 'Create an import: a place to send a file to, used later as import_id',
        responses: responses({ 200: { description: 'The import.', ...json(Import), links: importLinks } }, [...KEYED, 503]),
      },
    },
    '/v1/imports/{importId}/content': {
      put: { operationId: 'putImportContent', ...importContent },
      post: { operationId: 'postImportContent', ...importContent },
    },
    '/v1/download/{token}': {
      get: {
        operationId: 'download',
        summary: 'Download a result',
        description: 'The token is the credential; no key needed.',
        security: [],
        requestParams: { path: z.object({ token: z.string().min(1) }) },
        responses: responses(
          {
            302: {
              description: 'Redirect to a short-lived storage URL.',
              headers: z.object({ location: z.string().meta({ description: 'The storage URL.' }) }),
            },
          },
          [402, 404],
        ),
      },
    },
  },
};

let built: ReturnType<typeof createDocument> | undefined;

/**
 * The OpenAPI 3.1 document of the whole API, built once from the schemas.
 * With `publicUrl`, `servers` names that installation (the gateway's
 * TRANSMUTE_PUBLIC_URL) instead of the relative `/`.
 */
export function openApiDocument(publicUrl?: string): ReturnType<typeof createDocument> {
  built ??= markDeprecations(createDocument(document), DEPRECATIONS);
  if (!publicUrl) return built;
  return { ...built, servers: [{ url: publicUrl.replace(/\/+$/, ''), description: 'This installation' }] };
}

const deprecationsByRoute = new Map<string, Deprecation | undefined>();

/**
 * What a response of `route` (`get /v1/formats`, the document's path
 * template) announces with the Deprecation and Sunset headers: the route's
 * own deprecation, or that of a field it carries.
 */
export function deprecationForRoute(route: string, register: readonly Deprecation[] = DEPRECATIONS): Deprecation | undefined {
  if (register !== DEPRECATIONS) return deprecationOf(route, contractSurface(openApiDocument()), register);
  if (!deprecationsByRoute.has(route)) deprecationsByRoute.set(route, deprecationOf(route, contractSurface(openApiDocument()), register));
  return deprecationsByRoute.get(route);
}
