/**
 * The website in a real browser (Debian's chromium through playwright-core)
 * against the real platform: anonymous PNG and DOCX conversions downloaded
 * through the page (checked by magic bytes), the quota notice after the
 * anonymous allowance, sign-up -> key -> /v1/formats -> delete -> 401, the
 * signing secret rotated, usage moving after a conversion, a cross-site form
 * post refused, sign-out, slowed-down wrong passwords, and axe on every page
 * (screenshots at desktop and phone width in e2e/artefacts/website).
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { admin } from '../limits/limits-support';
import { type JobStatus, TERMINAL_JOB_STATUSES } from '../support';
import { platformFixture } from '../support/platform-fixture';
import { launchChromium, screenshots, seriousViolations } from './browser';
import { GOOD_PASSWORD, uniqueEmail } from './web-client';

// The anonymous plan as shipped (3 conversions a day, one per job), with a rate limit a test's page loads never meet.
const PLANS = {
  anonymous: { monthlyGb: 0.1, additionalGb: 0, dailyConversions: 3, convertAllowance: 1, rateLimitPerMinute: 10_000 },
  // 100 bytes a month: smaller than any sample, for the "too big" message.
  'e2e-tiny': { monthlyGb: 0.0000001, additionalGb: 0, dailyConversions: 5, convertAllowance: 1, rateLimitPerMinute: 10_000 },
};
// Private networks allowed: the job-history test's webhook receiver listens on loopback.
const env = platformFixture({
  name: 'website',
  families: ['image', 'document'],
  extraEnv: { TRANSMUTE_PLANS: JSON.stringify(PLANS), TRANSMUTE_ALLOW_PRIVATE_NETWORKS: 'true' },
});

const CONVERSION_TIMEOUT_MS = 120_000;
let browser: Browser;
let samples: string;
let png: string;
let docx: string;

beforeAll(async () => {
  browser = await launchChromium();
  samples = await mkdtemp(join(tmpdir(), 'transmute-website-samples-'));
  // Made with the engines the platform converts with: ImageMagick and pandoc.
  png = join(samples, 'gradient.png');
  execFileSync('convert', ['-size', '120x80', 'gradient:orange-navy', `png:${png}`]);
  docx = join(samples, 'letter.docx');
  execFileSync('pandoc', ['-f', 'markdown', '-t', 'docx', '-o', docx], { input: '# Letter\n\nHello from the website test.\n' });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (samples) await rm(samples, { recursive: true, force: true });
});

const base = (): string => env().platform.baseUrl;

async function newPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.on('dialog', (dialog) => void dialog.accept());
  return { context, page };
}

async function expectAccessible(page: Page, name: string): Promise<void> {
  expect({ page: name, violations: await seriousViolations(page) }).toEqual({ page: name, violations: [] });
}

/** Adds a file on the convert page and picks the target format; returns when the options are shown. */
async function chooseConversion(page: Page, file: string, target: string): Promise<void> {
  await page.setInputFiles('#file-input', file);
  await page.locator('#target-format option', { hasText: target.toUpperCase() }).first().waitFor({ state: 'attached' });
  await page.selectOption('#target-format', target);
  await page.getByRole('group', { name: new RegExp(`Options for .* to ${target.toUpperCase()}`) }).waitFor();
}

/** Clicks Convert and waits for the last file row to end; returns that row's status. */
async function convert(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Convert', exact: true }).click();
  const last = page.getByTestId('file-row').last();
  await last.locator('xpath=self::*[@data-status="finished" or @data-status="failed"]').waitFor({ timeout: CONVERSION_TIMEOUT_MS });
  return (await last.getAttribute('data-status')) ?? '';
}

async function downloadLast(page: Page): Promise<Buffer> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download').last().click()]);
  return readFile(await download.path());
}

async function signUp(page: Page, email = uniqueEmail('web')): Promise<string> {
  await page.goto(`${base()}/signup`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(GOOD_PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  return email;
}

describe('website', () => {
  it('converts a PNG and a DOCX without an account, downloaded through the page', async () => {
    const { context, page } = await newPage();
    await page.goto(`${base()}/`);
    await page.getByRole('heading', { name: 'Convert files' }).waitFor();
    await expectAccessible(page, 'convert (empty)');
    await screenshots(page, 'convert');

    await chooseConversion(page, png, 'jpg');
    await expectAccessible(page, 'convert (options shown)');
    await screenshots(page, 'convert-options');
    expect(await convert(page)).toBe('finished');
    const jpg = await downloadLast(page);
    expect([...jpg.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);

    await chooseConversion(page, docx, 'pdf');
    expect(await convert(page)).toBe('finished');
    const pdf = await downloadLast(page);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await screenshots(page, 'convert-done');
    await context.close();
  });

  it('shows the way forward once the anonymous allowance is used up', async () => {
    const { context, page } = await newPage();
    await page.goto(`${base()}/`);
    // Two of the three daily conversions went to the test above: one more fits, the next is refused.
    await page.getByTestId('allowance').filter({ hasText: '1 of 3 conversions left today' }).waitFor();
    await chooseConversion(page, png, 'webp');
    expect(await convert(page)).toBe('finished');
    await chooseConversion(page, png, 'webp');
    expect(await convert(page)).toBe('failed');
    await expect(page.getByTestId('file-row').last().textContent()).resolves.toMatch(/Quota reached: daily conversions allowance used up/);
    const notice = page.getByTestId('quota-notice');
    await notice.waitFor();
    await expect(notice.getByRole('link', { name: 'Sign up for free' }).getAttribute('href')).resolves.toBe('/signup');
    // The offer names the configured sign-up plan's figures, as the API gives them, not figures written into the page.
    const { plan } = (await (await fetch(`${base()}/web/api/sign-up-plan`)).json()) as { plan: { daily_conversions: number; monthly_bytes: number } };
    await notice.filter({ hasText: `${plan.daily_conversions} files a day with ${(plan.monthly_bytes / 1e9).toFixed(2)} GB a month` }).waitFor();
    await expectAccessible(page, 'convert (quota reached)');
    await screenshots(page, 'convert-quota');
    await context.close();
  });

  it('converts a file given by its web address', async () => {
    const { context, page } = await newPage();
    // Signed in: the anonymous allowance went to the tests above.
    await signUp(page);
    const source: Server = createServer((request, response) => {
      if (request.url !== '/files/remote.png') return void response.writeHead(404).end();
      void readFile(png).then((bytes) => response.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': bytes.length }).end(bytes));
    });
    await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
    try {
      await page.getByRole('link', { name: 'Convert', exact: true }).click();
      await page.getByLabel("Or a file's web address").fill(`http://127.0.0.1:${(source.address() as AddressInfo).port}/files/remote.png`);
      await page.getByRole('button', { name: 'Add address' }).click();
      await page.locator('#target-format option', { hasText: 'JPG' }).first().waitFor({ state: 'attached' });
      await page.selectOption('#target-format', 'jpg');
      expect(await convert(page)).toBe('finished');
      const jpg = await downloadLast(page);
      expect([...jpg.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    } finally {
      source.close();
    }
    await context.close();
  });

  it('says a file is too big for the allowance left, before uploading it', async () => {
    const { context, page } = await newPage();
    await signUp(page);
    const session: any = await page.evaluate(() => fetch('/web/api/session').then((response) => response.json()));
    await admin(env().platform, 'accounts', 'set-plan', session.person.account_id, 'e2e-tiny');
    await page.getByRole('link', { name: 'Convert', exact: true }).click();
    await chooseConversion(page, png, 'jpg');
    expect(await convert(page)).toBe('failed');
    await expect(page.getByTestId('file-row').last().textContent()).resolves.toMatch(/Too big: this file is \d+ B and 100 B is left of your allowance/);
    await page.getByTestId('quota-notice').waitFor();
    const usage: any = await page.evaluate(() => fetch('/web/api/account/usage').then((response) => response.json()));
    expect(usage.usage.daily_conversions_used).toBe(0);
    await context.close();
  });

  it('signs up, creates a key that works on /v1/formats, deletes it: 401', async () => {
    const { context, page } = await newPage();
    await page.goto(`${base()}/signup`);
    await expectAccessible(page, 'sign up');
    await screenshots(page, 'signup');
    await signUp(page);
    await page.getByLabel('Label').fill('build server');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByTestId('new-key').locator('code').textContent()) ?? '';
    expect(key).toMatch(/^tm_[a-f0-9]{12}_[a-f0-9]{48}$/);
    const withKey = () => fetch(`${base()}/v1/formats`, { headers: { Authorization: `Bearer ${key}` } }).then((response) => response.status);
    expect(await withKey()).toBe(200);
    const row = page.getByTestId('key-row').filter({ hasText: 'build server' });
    await row.waitFor();
    await expectAccessible(page, 'dashboard');
    await screenshots(page, 'dashboard');
    await row.getByRole('button', { name: /Delete/ }).click();
    await row.waitFor({ state: 'detached' });
    expect(await withKey()).toBe(401);
    await context.close();
  });

  it('rotates the webhook signing secret', async () => {
    const { context, page } = await newPage();
    await signUp(page);
    await page.getByRole('button', { name: 'Reveal' }).click();
    const before = (await page.getByTestId('signing-secret').textContent()) ?? '';
    expect(before).toMatch(/^whsec_[a-f0-9]{64}$/);
    await page.getByRole('button', { name: 'Rotate' }).click();
    await page.getByTestId('signing-secret').filter({ hasNotText: before }).waitFor();
    const after = (await page.getByTestId('signing-secret').textContent()) ?? '';
    expect(after).toMatch(/^whsec_[a-f0-9]{64}$/);
    expect(after).not.toBe(before);
    await context.close();
  });

  it('moves the usage counters after a conversion', async () => {
    const { context, page } = await newPage();
    await signUp(page);
    const usage = page.getByTestId('usage');
    await usage.filter({ hasText: '0 of 5' }).waitFor();
    await expect(usage.textContent()).resolves.toContain('0.00 GB of 1.00 GB');
    await page.getByRole('link', { name: 'Convert', exact: true }).click();
    await chooseConversion(page, png, 'jpg');
    expect(await convert(page)).toBe('finished');
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await page.getByTestId('usage').filter({ hasText: '1 of 5' }).waitFor();
    const counters: any = await page.evaluate(() => fetch('/web/api/account/usage').then((response) => response.json()));
    expect(counters.usage.monthly_used_bytes).toBeGreaterThan(0);
    await context.close();
  });

  it("lists the person's jobs with their files and webhook deliveries (jobs.list)", async () => {
    const { context, page } = await newPage();
    await signUp(page);
    await page.getByLabel('Label').fill('history');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByTestId('new-key').locator('code').textContent()) ?? '';
    const received: string[] = [];
    const receiver: Server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        received.push(String(request.headers['content-type']));
        response.statusCode = 204;
        response.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const auth = { Authorization: `Bearer ${key}` };
      const creation = await fetch(`${base()}/v1/process/jobs`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          tag: 'history-test',
          webhook_url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
          tasks: {
            source: { operation: 'import/upload', filename: 'history.png' },
            convert: { operation: 'convert', input: 'source', output_format: 'gif' },
            export: { operation: 'export/url', input: ['convert'] },
          },
        }),
      });
      const created = (await creation.json()) as { id: string; status: string; tasks: { name: string; result?: { form?: { url: string; headers: Record<string, string> } } }[] };
      expect({ status: creation.status, body: created }).toMatchObject({ status: 201, body: { id: expect.any(String) } });
      const form = created.tasks.find((task) => task.name === 'source')?.result?.form;
      if (!form) throw new Error(`no upload form on job ${created.id}`);
      expect((await fetch(form.url, { method: 'PUT', headers: form.headers, body: await readFile(png) })).status).toBe(200);
      expect((await fetch(`${base()}/v1/process/jobs/${created.id}/complete-upload`, { method: 'POST', headers: auth })).status).toBe(200);
      const deadline = Date.now() + CONVERSION_TIMEOUT_MS;
      let job = created;
      while (!TERMINAL_JOB_STATUSES.includes(job.status as JobStatus) && Date.now() < deadline) {
        // Every 2 s: the free plan allows 60 keyed requests a minute.
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        job = (await fetch(`${base()}/v1/process/jobs/${created.id}`, { headers: auth }).then((response) => response.json())) as typeof job;
      }
      expect(job.status).toBe('finished');
      while (received.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
      expect(received.length).toBeGreaterThan(0);

      await page.reload();
      const row = page.getByTestId('job-row').filter({ hasText: 'history-test' });
      await row.waitFor();
      await expect(row.textContent()).resolves.toContain('finished');
      await expect(row.getByRole('link').first().getAttribute('href')).resolves.toMatch(/\/v1\/download\//);
      await row.getByRole('button', { name: new RegExp(`Show webhook deliveries of job ${created.id}`) }).click();
      await row.locator('.deliveries li').filter({ hasText: 'job.finished' }).filter({ hasText: 'delivered' }).waitFor();
      await expectAccessible(page, 'dashboard (job history)');
      await screenshots(page, 'dashboard-history');
    } finally {
      receiver.close();
    }
    await context.close();
  });

  it('refuses a cross-site form post, even with the session cookie', async () => {
    const { context, page } = await newPage();
    await signUp(page);
    const secret: any = await page.evaluate(() => fetch('/web/api/account/signing-secret').then((response) => response.json()));
    // Another origin (other port: same site, so the Lax cookie is sent; only the CSRF defences stand).
    const target = `${base()}/web/api/account/signing-secret/rotate`;
    const evil: Server = createServer((_request, response) => {
      response.setHeader('Content-Type', 'text/html');
      response.end(`<form method="post" action="${target}"><input name="_csrf" value="guessed"></form><script>document.forms[0].submit()</script>`);
    });
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
    try {
      const answer = page.waitForResponse((response) => response.url() === target);
      await page.goto(`http://127.0.0.1:${(evil.address() as AddressInfo).port}/`);
      expect((await answer).status()).toBe(403);
    } finally {
      evil.close();
    }
    await page.goto(`${base()}/dashboard`);
    const after: any = await page.evaluate(() => fetch('/web/api/account/signing-secret').then((response) => response.json()));
    expect(after.signing_secret).toBe(secret.signing_secret);
    await context.close();
  });

  it('ends the session on sign-out', async () => {
    const { context, page } = await newPage();
    await signUp(page);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('link', { name: 'Sign in' }).waitFor();
    await page.goto(`${base()}/dashboard`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    const keys = await page.evaluate(() => fetch('/web/api/account/keys').then((response) => response.status));
    expect(keys).toBe(401);
    await context.close();
  });

  it('slows repeated wrong passwords down and says so', async () => {
    const { context, page } = await newPage();
    const email = await signUp(page);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.goto(`${base()}/signin?next=/dashboard`);
    await expectAccessible(page, 'sign in');
    await screenshots(page, 'signin');
    const alert = page.getByRole('alert');
    for (let attempt = 1; attempt <= 6; attempt += 1) {
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(`wrong password ${attempt}`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await alert.filter({ hasText: attempt <= 5 ? 'wrong email or password' : 'too many failed sign-ins' }).waitFor();
      await page.getByRole('button', { name: 'Sign in' }).and(page.locator(':enabled')).waitFor();
    }
    await page.getByLabel('Password').fill(GOOD_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await alert.filter({ hasText: 'too many failed sign-ins' }).waitFor();
    await context.close();
  });

  it('returns to a same-origin next after signing in, never to another site', async () => {
    const { context, page } = await newPage();
    const email = await signUp(page);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.goto(`${base()}/signin?next=${encodeURIComponent('//evil.example/')}`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(GOOD_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    expect(new URL(page.url()).origin).toBe(new URL(base()).origin);
    await context.close();
  });
});
