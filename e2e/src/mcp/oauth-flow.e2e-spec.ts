/**
 * The MCP server's OAuth 2.1 (issue 16), with the SDK's own client, headless:
 * discovery -> dynamic registration -> authorize (sign in on the website,
 * answer the real consent page) -> token -> tools -> convert a file served
 * on loopback -> get_job -> download -> refresh (rotation) -> revoke ->
 * refused; the dashboard's connected applications; and each refusal with
 * its OAuth error.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { connect, type NatsConnection } from 'nats';
import type { Browser } from 'playwright-core';
import { launchChromium, screenshots, seriousViolations } from '../website/browser';
import { decodeImage, gradientPng, type Sample } from '../support';
import { platformFixture } from '../support/platform-fixture';
import { GOOD_PASSWORD, uniqueEmail } from '../website/web-client';
import { callTool, connectClient, pollJob } from './mcp-support';
import { ConsentBrowser, HeadlessOAuthProvider, pkcePair, postForm, REDIRECT_URI } from './oauth-support';

const CODE_TTL_SECONDS = 5;
// The source is served on loopback, so private networks are allowed here. Codes live 5 s so expiry is testable.
const env = platformFixture({
  name: 'mcp-oauth',
  extraEnv: { TRANSMUTE_ALLOW_PRIVATE_NETWORKS: 'true', TRANSMUTE_OAUTH_CODE_TTL_SECONDS: String(CODE_TTL_SECONDS) },
});
const mcpUrl = () => env().platform.mcpUrl;
const baseUrl = () => env().platform.baseUrl;

let sample: Sample;
let source: Server;
let sourceUrl: string;
let nats: NatsConnection;
beforeAll(async () => {
  sample = await gradientPng(96, 64);
  source = createServer((request, response) => {
    if (request.url !== '/files/chart.png') return void response.writeHead(404).end();
    response.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': sample.bytes.length }).end(sample.bytes);
  });
  await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
  sourceUrl = `http://127.0.0.1:${(source.address() as AddressInfo).port}/files/chart.png`;
  nats = await connect({ servers: env().platform.env['TRANSMUTE_NATS_URL'] });
});
afterAll(async () => {
  await nats?.close();
  await new Promise<void>((resolve) => source.close(() => resolve()));
});

/** A person with a website account, and their browser (not signed in yet). */
async function person(tag: string): Promise<{ browser: ConsentBrowser; account: { email: string; password: string } }> {
  const browser = new ConsentBrowser(baseUrl());
  const account = { email: uniqueEmail(tag), password: GOOD_PASSWORD };
  await browser.web.session();
  const signUp = await browser.web.call('POST', '/web/api/signup', account);
  if (signUp.status !== 201) throw new Error(`sign-up answered ${signUp.status}: ${JSON.stringify(signUp.body)}`);
  return { browser, account };
}

/** An MCP request with a bearer token, as raw HTTP: its status. */
async function mcpStatus(token: string): Promise<number> {
  const response = await fetch(mcpUrl(), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  await response.arrayBuffer();
  return response.status;
}

interface Metadata {
  authorization_endpoint: string;
  token_endpoint: string;
  registration_endpoint: string;
  revocation_endpoint: string;
  [key: string]: unknown;
}
async function metadata(): Promise<Metadata> {
  return (await (await fetch(`${baseUrl()}/.well-known/oauth-authorization-server`)).json()) as Metadata;
}

async function registerClient(name: string): Promise<string> {
  const response = await fetch((await metadata()).registration_endpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ client_name: name, redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { client_id: string }).client_id;
}

function authorizeUrl(endpoint: string, clientId: string, challenge: string, extra: Record<string, string> = {}): URL {
  const url = new URL(endpoint);
  const params = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st-1',
    resource: mcpUrl(),
    ...extra,
  };
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url;
}

describe('OAuth 2.1 with the SDK client', () => {
  test('discovery, registration, sign-in and consent, token, tools, convert, download, refresh, revoke', async () => {
    // Discovery: the 401 names the resource metadata, which names the authorization server.
    const challenge = await fetch(mcpUrl(), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    const header = challenge.headers.get('www-authenticate') ?? '';
    expect(challenge.status).toBe(401);
    const resourceMetadataUrl = /resource_metadata="([^"]+)"/.exec(header)?.[1];
    expect(resourceMetadataUrl).toBe(`${mcpUrl()}/.well-known/oauth-protected-resource`);
    const resource = (await (await fetch(resourceMetadataUrl as string)).json()) as { resource: string; authorization_servers: string[] };
    expect(resource).toMatchObject({ resource: mcpUrl(), authorization_servers: [baseUrl()] });
    const server = await metadata();
    expect(server).toMatchObject({
      issuer: baseUrl(),
      authorization_endpoint: `${baseUrl()}/oauth/authorize`,
      token_endpoint: `${baseUrl()}/oauth/token`,
      registration_endpoint: `${baseUrl()}/oauth/register`,
      revocation_endpoint: `${baseUrl()}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
    });

    // The SDK client discovers, registers and starts authorization by itself.
    const provider = new HeadlessOAuthProvider('Flow Assistant');
    const transport = new StreamableHTTPClientTransport(new URL(mcpUrl()), { authProvider: provider });
    await expect(new Client({ name: 'e2e', version: '1' }).connect(transport)).rejects.toThrow(UnauthorizedError);
    expect(provider.clientInformation()?.client_id).toMatch(/^[0-9a-f-]{36}$/);
    const authorization = provider.authorizationUrl as URL;
    expect(authorization.origin + authorization.pathname).toBe(`${baseUrl()}/oauth/authorize`);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('resource')).toBe(mcpUrl());

    // The person is sent to sign in on the website, then sees the consent screen naming the application.
    const { browser, account } = await person('flow');
    const unsigned = await browser.open(authorization);
    expect(unsigned.status).toBe(302);
    expect(unsigned.location).toMatch(/^\/signin\?next=%2Foauth%2Fauthorize%3F/);
    const { consentHtml, redirect } = await browser.authorize(authorization, account);
    expect(consentHtml).toContain('<span id="client-name">Flow Assistant</span>');
    expect(consentHtml).toContain('convert files from public URLs');
    expect(redirect.status).toBe(303);
    expect(redirect.location.origin + redirect.location.pathname).toBe(REDIRECT_URI);
    const code = redirect.location.searchParams.get('code');
    expect(code).toMatch(/^tmac_/);
    expect(redirect.location.searchParams.get('state')).toBe(authorization.searchParams.get('state'));

    await transport.finishAuth(code as string);
    await transport.close();
    const tokens = provider.tokens();
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'convert' });
    expect(tokens?.refresh_token).toMatch(/^tmrt_/);

    // The tools, with the token.
    const client = await connectClient(mcpUrl(), { provider });
    let downloaded: Buffer;
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['convert', 'get_job', 'list_formats']);
      const { result, progress } = await callTool(client, 'convert', { url: sourceUrl, output_format: 'jpg', tag: 'mcp-e2e' });
      expect(result.isError).toBeFalsy();
      const created = result.structuredContent as { job_id: string; tag: string; status: string };
      expect(created.job_id).toMatch(/^[0-9a-f]{32}$/);
      expect(created.tag).toBe('mcp-e2e');
      expect(progress.length).toBeGreaterThan(0);
      expect(progress[0]).toMatchObject({ total: 3, message: expect.stringContaining(created.job_id) });
      const job = await pollJob(client, created.job_id);
      expect(job['status']).toBe('finished');
      expect(job['tasks'].map((task: { name: string; status: string }) => [task.name, task.status])).toEqual([
        ['import', 'finished'],
        ['convert', 'finished'],
        ['export', 'finished'],
      ]);
      expect(job['downloads']).toHaveLength(1);
      const link = job['downloads'][0].url as string;
      expect(link.startsWith(`${baseUrl()}/v1/download/`)).toBe(true);
      const { file } = await env().client.download(link);
      downloaded = file.bytes;
    } finally {
      await client.close();
    }
    const image = await decodeImage(downloaded);
    expect(image).toMatchObject({ format: 'jpeg', width: 96, height: 64 });

    // The person sees the application on the dashboard.
    const apps = await browser.web.call('GET', '/web/api/account/connected-apps');
    expect(apps.status).toBe(200);
    expect(apps.body.applications).toEqual([expect.objectContaining({ name: 'Flow Assistant', client_id: provider.clientInformation()?.client_id, scopes: ['convert'] })]);

    // Refresh rotates the refresh token.
    const clientId = provider.clientInformation()?.client_id as string;
    const refreshed = await postForm(server.token_endpoint, { grant_type: 'refresh_token', refresh_token: tokens?.refresh_token as string, client_id: clientId });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(refreshed.body['refresh_token']).not.toBe(tokens?.refresh_token);
    expect(await mcpStatus(refreshed.body['access_token'])).toBe(200);

    // Revoking the refresh token ends it and every access token issued from it, at once.
    const revoked = await postForm(server.revocation_endpoint, { token: refreshed.body['refresh_token'], client_id: clientId });
    expect(revoked.status).toBe(200);
    expect(await mcpStatus(refreshed.body['access_token'])).toBe(401);
    expect(await mcpStatus(tokens?.access_token as string)).toBe(401);
    const afterRevoke = await postForm(server.token_endpoint, { grant_type: 'refresh_token', refresh_token: refreshed.body['refresh_token'], client_id: clientId });
    expect(afterRevoke).toEqual({ status: 400, body: expect.objectContaining({ error: 'invalid_grant' }) });
    expect((await browser.web.call('GET', '/web/api/account/connected-apps')).body.applications).toEqual([]);
  });

  test("disconnecting on the dashboard refuses the application's tokens at once", async () => {
    const clientId = await registerClient('Dashboard Assistant');
    const server = await metadata();
    const { browser, account } = await person('dashboard');
    const { verifier, challenge } = pkcePair();
    const { redirect } = await browser.authorize(authorizeUrl(server.authorization_endpoint, clientId, challenge), account);
    const tokens = await postForm(server.token_endpoint, {
      grant_type: 'authorization_code',
      code: redirect.location.searchParams.get('code') as string,
      code_verifier: verifier,
      client_id: clientId,
      redirect_uri: REDIRECT_URI,
      resource: mcpUrl(),
    });
    expect(tokens.status).toBe(200);
    expect(await mcpStatus(tokens.body['access_token'])).toBe(200);

    const listed = await browser.web.call('GET', '/web/api/account/connected-apps');
    expect(listed.body.applications.map((app: { name: string }) => app.name)).toEqual(['Dashboard Assistant']);
    // CSRF: the same request without the token is refused, and nothing is disconnected.
    expect((await browser.web.call('DELETE', `/web/api/account/connected-apps/${clientId}`, undefined, { csrf: false })).status).toBe(403);
    expect(await mcpStatus(tokens.body['access_token'])).toBe(200);
    const removed = await browser.web.call('DELETE', `/web/api/account/connected-apps/${clientId}`);
    expect(removed.status).toBe(200);
    expect(await mcpStatus(tokens.body['access_token'])).toBe(401);
    const refresh = await postForm(server.token_endpoint, { grant_type: 'refresh_token', refresh_token: tokens.body['refresh_token'], client_id: clientId });
    expect(refresh.body['error']).toBe('invalid_grant');
    expect((await browser.web.call('DELETE', `/web/api/account/connected-apps/${clientId}`)).status).toBe(404);
  });
});

describe('OAuth in a real browser (Chromium)', () => {
  let chromium: Browser;
  beforeAll(async () => {
    chromium = await launchChromium();
  });
  afterAll(async () => {
    await chromium?.close();
  });

  test('sign in on the website, allow on the consent page, then disconnect on the dashboard', async () => {
    const server = await metadata();
    const clientId = await registerClient('Browser Assistant');
    const { account } = await person('chromium');
    const { verifier, challenge } = pkcePair();
    const context = await chromium.newContext();
    const page = await context.newPage();
    // The application's redirect URI: nothing listens there, the browser's request is answered here.
    let returned: URL | undefined;
    await page.route(`${REDIRECT_URI}**`, async (route) => {
      returned = new URL(route.request().url());
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'back in the application' });
    });
    try {
      await page.goto(authorizeUrl(server.authorization_endpoint, clientId, challenge).href);
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await page.getByLabel('Email').fill(account.email);
      await page.getByLabel('Password').fill(account.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: /Allow Browser Assistant to use your Transmute account/ }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await screenshots(page, 'oauth-consent');
      await page.getByRole('button', { name: 'Allow' }).click();
      await page
        .getByText('back in the application')
        .waitFor({ timeout: 15_000 })
        .catch(async (error: unknown) => {
          throw new Error(`not sent back; at ${page.url()}: ${(await page.content()).slice(0, 1000)}`, { cause: error });
        });
      expect(returned?.searchParams.get('state')).toBe('st-1');
      const tokens = await postForm(server.token_endpoint, {
        grant_type: 'authorization_code',
        code: returned?.searchParams.get('code') as string,
        code_verifier: verifier,
        client_id: clientId,
        redirect_uri: REDIRECT_URI,
      });
      expect(tokens.status).toBe(200);
      expect(await mcpStatus(tokens.body['access_token'])).toBe(200);

      await page.goto(`${baseUrl()}/dashboard`);
      const row = page.getByTestId('app-row').filter({ hasText: 'Browser Assistant' });
      await row.waitFor();
      expect(await row.textContent()).toContain('convert files from public URLs');
      page.once('dialog', (dialog) => void dialog.accept());
      await row.getByRole('button', { name: /Disconnect/ }).click();
      await page.getByText('No connected applications.').waitFor();
      expect(await mcpStatus(tokens.body['access_token'])).toBe(401);
    } finally {
      await context.close();
    }
  });
});

describe('OAuth refusals', () => {
  let clientId: string;
  let server: Metadata;
  let people: { browser: ConsentBrowser; account: { email: string; password: string } };
  beforeAll(async () => {
    server = await metadata();
    clientId = await registerClient('Refusal Assistant');
    people = await person('refusals');
  });

  /** A fresh code (and its verifier) from the consent page. */
  async function freshCode(extra: Record<string, string> = {}): Promise<{ code: string; verifier: string }> {
    const { verifier, challenge } = pkcePair();
    const { redirect } = await people.browser.authorize(authorizeUrl(server.authorization_endpoint, clientId, challenge, extra), people.account);
    const code = redirect.location.searchParams.get('code');
    if (!code) throw new Error(`no code: ${redirect.location.href}`);
    return { code, verifier };
  }
  const exchange = (code: string, verifier: string, extra: Record<string, string> = {}) =>
    postForm(server.token_endpoint, { grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT_URI, ...extra });

  test('a PKCE verifier that does not match: invalid_grant', async () => {
    const { code } = await freshCode();
    const answer = await exchange(code, pkcePair().verifier);
    expect(answer).toEqual({ status: 400, body: expect.objectContaining({ error: 'invalid_grant' }) });
  });

  test('a plain challenge: sent back with invalid_request, no consent page', async () => {
    const { verifier } = pkcePair();
    const page = await people.browser.open(authorizeUrl(server.authorization_endpoint, clientId, verifier, { code_challenge_method: 'plain' }));
    expect(page.status).toBe(302);
    const back = new URL(page.location as string);
    expect(back.origin + back.pathname).toBe(REDIRECT_URI);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('error_description')).toMatch(/code_challenge_method/);
    expect(back.searchParams.get('code')).toBeNull();
  });

  test('a redirect URI that was not registered: 400 invalid_request, nobody is redirected', async () => {
    const page = await people.browser.open(authorizeUrl(server.authorization_endpoint, clientId, pkcePair().challenge, { redirect_uri: 'https://attacker.example/cb' }));
    expect(page.status).toBe(400);
    expect(page.location).toBeNull();
    expect(JSON.parse(page.html)).toMatchObject({ error: 'invalid_request', error_description: expect.stringMatching(/redirect_uri/) });
  });

  test('an expired code: invalid_grant', async () => {
    const { code, verifier } = await freshCode();
    await sleep(CODE_TTL_SECONDS * 1000 + 1000);
    expect(await exchange(code, verifier)).toEqual({ status: 400, body: expect.objectContaining({ error: 'invalid_grant' }) });
  });

  test('a code used twice: invalid_grant, and the tokens of its first use are revoked', async () => {
    const { code, verifier } = await freshCode();
    const first = await exchange(code, verifier);
    expect(first.status).toBe(200);
    expect(await mcpStatus(first.body['access_token'])).toBe(200);
    expect(await exchange(code, verifier)).toEqual({ status: 400, body: expect.objectContaining({ error: 'invalid_grant' }) });
    expect(await mcpStatus(first.body['access_token'])).toBe(401);
  });

  test('a token for another audience: refused at authorize and token (invalid_target), and by the MCP server', async () => {
    const elsewhere = 'https://elsewhere.example/mcp';
    const page = await people.browser.open(authorizeUrl(server.authorization_endpoint, clientId, pkcePair().challenge, { resource: elsewhere }));
    expect(page.status).toBe(302);
    expect(new URL(page.location as string).searchParams.get('error')).toBe('invalid_target');

    const { code, verifier } = await freshCode();
    expect(await exchange(code, verifier, { resource: elsewhere })).toEqual({ status: 400, body: expect.objectContaining({ error: 'invalid_target' }) });

    // A token bound to this MCP server, presented as if by another resource server, is not accepted there.
    const { code: good, verifier: goodVerifier } = await freshCode();
    const tokens = await exchange(good, goodVerifier, { resource: mcpUrl() });
    expect(tokens.status).toBe(200);
    const ask = async (resource: string) => {
      const packet = { pattern: 'accounts.mcp.authenticate', data: { credential: tokens.body['access_token'], clientIp: '127.0.0.1', resource }, id: `aud-${resource}` };
      const reply = await nats.request('accounts.mcp.authenticate', new TextEncoder().encode(JSON.stringify(packet)), { timeout: 30_000 });
      return JSON.parse(new TextDecoder().decode(reply.data)).response;
    };
    expect((await ask(mcpUrl())).caller).toMatchObject({ allowed: true, principal: { via: 'oauth', scopes: ['convert'] } });
    expect((await ask(elsewhere)).error).toMatchObject({ code: 'ERROR_CODE_UNAUTHENTICATED' });
  });

  test('a refresh token used after its rotation ends the whole grant', async () => {
    const { code, verifier } = await freshCode();
    const first = await exchange(code, verifier);
    const rotated = await postForm(server.token_endpoint, { grant_type: 'refresh_token', refresh_token: first.body['refresh_token'], client_id: clientId });
    expect(rotated.status).toBe(200);
    const replay = await postForm(server.token_endpoint, { grant_type: 'refresh_token', refresh_token: first.body['refresh_token'], client_id: clientId });
    expect(replay.body['error']).toBe('invalid_grant');
    expect(await mcpStatus(rotated.body['access_token'])).toBe(401);
  });

  test('denying on the consent screen sends the application back with access_denied', async () => {
    const { redirect } = await people.browser.authorize(authorizeUrl(server.authorization_endpoint, clientId, pkcePair().challenge), people.account, 'deny');
    expect(redirect.location.searchParams.get('error')).toBe('access_denied');
    expect(redirect.location.searchParams.get('code')).toBeNull();
  });
});
