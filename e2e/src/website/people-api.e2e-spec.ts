/**
 * The people module over HTTP, as the website's pages use it: sign-up and
 * sign-in with cookies, CSRF (token + Origin), API keys from the dashboard
 * (a deleted key is 401 at once), the signing secret, sign-out, the
 * sign-in throttle, no answer telling whether an address is registered, and
 * an account suspended with the admin CLI losing its keys and sessions.
 */
import { platformFixture } from '../support/platform-fixture';
import { admin } from '../limits/limits-support';
import { GOOD_PASSWORD, WebClient, uniqueEmail } from './web-client';

// A sign-up plan of the operator's own: the site must offer these figures, not the shipped free plan's.
const SIGN_UP_PLAN = { monthlyGb: 2.5, additionalGb: 0, dailyConversions: 7, convertAllowance: 3, rateLimitPerMinute: 60 };
const env = platformFixture({
  name: 'website-people-api',
  families: ['image'],
  extraEnv: { TRANSMUTE_PLANS: JSON.stringify({ starter: SIGN_UP_PLAN }), TRANSMUTE_DEFAULT_PLAN: 'starter' },
});
const web = (): WebClient => new WebClient(env().platform.baseUrl);

async function formatsWithKey(key: string): Promise<number> {
  const response = await fetch(`${env().platform.baseUrl}/v1/formats`, { headers: { Authorization: `Bearer ${key}` } });
  await response.arrayBuffer();
  return response.status;
}

describe('people API', () => {
  it('names the configured sign-up plan and its figures', async () => {
    const answer = await web().call('GET', '/web/api/sign-up-plan');
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 200,
      body: {
        status: 'success',
        plan: { name: 'starter', monthly_bytes: 2_500_000_000, additional_bytes: 0, daily_conversions: 7, convert_allowance: 3, rate_limit_per_minute: 60 },
      },
    });
  });

  it('issues HttpOnly SameSite cookies and no Secure flag only on loopback http', async () => {
    const client = web();
    const answer = await client.call('GET', '/web/api/session');
    expect(answer.status).toBe(200);
    expect(answer.body.person).toBeNull();
    expect(answer.body.csrf_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const cookie = answer.headers.getSetCookie().find((line) => line.startsWith('tm_csrf='));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).not.toMatch(/Secure/);
  });

  it('signs up, signs in, manages keys; a deleted key is refused at once', async () => {
    const client = web();
    const email = uniqueEmail('keys');
    const signIn = await client.signUpAndIn(email, GOOD_PASSWORD);
    const session = signIn.headers.getSetCookie().find((line) => line.startsWith('tm_session='));
    expect(session).toMatch(/HttpOnly/);
    expect(session).toMatch(/SameSite=Lax/);
    expect((await client.call('GET', '/web/api/session')).body.person.email).toBe(email);

    const created = await client.call('POST', '/web/api/account/keys', { label: 'ci', allowed_ips: [] });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^tm_[a-f0-9]{12}_[a-f0-9]{48}$/);
    expect(await formatsWithKey(created.body.key)).toBe(200);

    const listed = await client.call('GET', '/web/api/account/keys');
    const row = listed.body.keys.find((key: { prefix: string }) => key.prefix === created.body.prefix);
    expect(row).toMatchObject({ label: 'ci', allowed_ips: [] });
    expect(JSON.stringify(listed.body)).not.toContain(created.body.key);

    expect((await client.call('DELETE', `/web/api/account/keys/${created.body.prefix}`)).status).toBe(200);
    expect(await formatsWithKey(created.body.key)).toBe(401);
  });

  it('reveals and rotates the webhook signing secret', async () => {
    const client = web();
    await client.signUpAndIn(uniqueEmail('secret'), GOOD_PASSWORD);
    const before = (await client.call('GET', '/web/api/account/signing-secret')).body.signing_secret;
    expect(before).toMatch(/^whsec_[a-f0-9]{64}$/);
    const rotated = await client.call('POST', '/web/api/account/signing-secret/rotate');
    expect(rotated.status).toBe(200);
    expect(rotated.body.signing_secret).not.toBe(before);
    expect((await client.call('GET', '/web/api/account/signing-secret')).body.signing_secret).toBe(rotated.body.signing_secret);
  });

  it('refuses cross-site and token-less changes', async () => {
    const client = web();
    await client.signUpAndIn(uniqueEmail('csrf'), GOOD_PASSWORD);
    const crossSite = await client.call('POST', '/web/api/account/keys', { label: 'x' }, { origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body).toEqual({ status: 'error', message: expect.stringContaining('cross-site') });
    const noToken = await client.call('POST', '/web/api/account/keys', { label: 'x' }, { csrf: false });
    expect(noToken.status).toBe(403);
    const keys = await client.call('GET', '/web/api/account/keys');
    expect(keys.body.keys).toEqual([]);
  });

  it('answers a taken address like a new one, and a wrong password like an unknown address', async () => {
    const client = web();
    const email = uniqueEmail('enum');
    await client.signUpAndIn(email, GOOD_PASSWORD);
    const stranger = web();
    await stranger.session();
    const again = await stranger.call('POST', '/web/api/signup', { email, password: 'another good password' });
    const fresh = await stranger.call('POST', '/web/api/signup', { email: uniqueEmail('enum-new'), password: 'another good password' });
    expect(again.status).toBe(fresh.status);
    expect(again.body).toEqual(fresh.body);
    const wrongPassword = await stranger.call('POST', '/web/api/signin', { email, password: 'not the password' });
    const unknown = await stranger.call('POST', '/web/api/signin', { email: uniqueEmail('nobody'), password: 'not the password' });
    expect(wrongPassword.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrongPassword.body).toEqual(unknown.body);
  });

  it('refuses weak passwords with a plain message', async () => {
    const client = web();
    await client.session();
    const answer = await client.call('POST', '/web/api/signup', { email: uniqueEmail('weak'), password: 'short' });
    expect(answer.status).toBe(422);
    expect(answer.body.message).toMatch(/at least 10 characters/);
  });

  it('ends the session on sign-out', async () => {
    const client = web();
    await client.signUpAndIn(uniqueEmail('out'), GOOD_PASSWORD);
    const stolenCookie = client.cookieHeader;
    expect((await client.call('POST', '/web/api/signout')).status).toBe(200);
    expect((await client.call('GET', '/web/api/account/keys')).status).toBe(401);
    // The old cookie, replayed, opens nothing either: the session is gone from the store.
    const replay = await fetch(`${env().platform.baseUrl}/web/api/account/keys`, { headers: { Cookie: stolenCookie } });
    expect(replay.status).toBe(401);
  });

  it('slows repeated wrong passwords down, even when the right one comes next', async () => {
    const client = web();
    const email = uniqueEmail('throttle');
    await client.signUpAndIn(email, GOOD_PASSWORD);
    const guesser = web();
    await guesser.session();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      statuses.push((await guesser.call('POST', '/web/api/signin', { email, password: `wrong guess ${attempt}` })).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const right = await guesser.call('POST', '/web/api/signin', { email, password: GOOD_PASSWORD });
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(right.body.retry_after).toBeGreaterThan(0);
  });

  it("stops a suspended account's keys and sessions at once", async () => {
    const client = web();
    const signIn = await client.signUpAndIn(uniqueEmail('suspend'), GOOD_PASSWORD);
    const key = (await client.call('POST', '/web/api/account/keys', { label: 'k' })).body.key as string;
    expect(await formatsWithKey(key)).toBe(200);
    await admin(env().platform, 'accounts', 'suspend', signIn.body.person.account_id);
    expect(await formatsWithKey(key)).toBe(403);
    expect((await client.call('GET', '/web/api/account/keys')).status).toBe(401);
    const people = await admin(env().platform, 'people', 'list');
    expect(people.map((person: { email: string }) => person.email)).toContain(signIn.body.person.email);
  });
});
