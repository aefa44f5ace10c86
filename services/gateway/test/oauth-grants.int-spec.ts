import { infraFixture } from '@transmute/devstack';
import type { GatewayConfig } from '../src/config';
import { OAuthGrants } from '../src/oauth/oauth-grants';
import type { ClientRecord } from '../src/oauth/oauth-records';
import { secretDigest } from '../src/oauth/oauth-secrets';
import { OAuthStore } from '../src/oauth/oauth-store';

/*
 * OAuth codes, grants and tokens on a real NATS (JetStream KV): the one-use
 * rules under races, revocation reaching every token of a grant, the
 * resource binding, and that nothing stored is a usable secret.
 */

const MCP_URL = 'http://127.0.0.1:8086/mcp';
const client: ClientRecord = { client_id: '0b7f3c1e-8a52-4c7e-9d51-2f1a6b0c9e44', client_name: 'Race Assistant', redirect_uris: ['http://127.0.0.1:1/cb'] };

const fixture = infraFixture();
let grants: OAuthGrants;

beforeAll(async () => {
  grants = new OAuthGrants(new OAuthStore(fixture.nc), { mcpPublicUrl: MCP_URL, oauthCodeTtlSeconds: 60 } as GatewayConfig);
}, 60_000);

async function code(personId = 'person-1'): Promise<string> {
  return grants.issueCode({
    clientId: client.client_id,
    personId,
    accountId: 'acc-1',
    redirectUri: 'http://127.0.0.1:1/cb',
    codeChallenge: 'unused-here',
    scopes: ['convert'],
    resource: MCP_URL,
    expiresAt: Date.now() + 60_000,
  });
}

describe('OAuthGrants on JetStream KV', () => {
  it('lets exactly one of 20 concurrent exchanges of a code through', async () => {
    const issued = await code();
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => grants.exchangeCode(client, issued, undefined, undefined)));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    const refusals = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [(outcome.reason as { errorCode: string }).errorCode] : []));
    expect(refusals).toEqual(Array(19).fill('invalid_grant'));
  });

  it('lets exactly one of 10 concurrent refreshes with one refresh token through', async () => {
    const tokens = await grants.exchangeCode(client, await code(), undefined, undefined);
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => grants.refresh(client, tokens.refresh_token as string, undefined)));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
  });

  it('ends every access token of a grant when its refresh token is revoked, and only that grant', async () => {
    const first = await grants.exchangeCode(client, await code('person-2'), undefined, undefined);
    const second = await grants.refresh(client, first.refresh_token as string, undefined);
    const other = await grants.exchangeCode(client, await code('person-2'), undefined, undefined);
    for (const token of [first.access_token, second.access_token, other.access_token]) expect(await grants.verifyAccess(token, MCP_URL)).not.toBeNull();

    await grants.revoke(client.client_id, second.refresh_token as string);
    expect(await grants.verifyAccess(first.access_token, MCP_URL)).toBeNull();
    expect(await grants.verifyAccess(second.access_token, MCP_URL)).toBeNull();
    expect(await grants.verifyAccess(other.access_token, MCP_URL)).not.toBeNull();
    // Another client cannot revoke it.
    await grants.revoke('ffffffff-ffff-4fff-8fff-ffffffffffff', other.refresh_token as string);
    expect(await grants.verifyAccess(other.access_token, MCP_URL)).not.toBeNull();
  });

  it('binds tokens to the MCP resource', async () => {
    const tokens = await grants.exchangeCode(client, await code(), undefined, MCP_URL);
    expect(await grants.verifyAccess(tokens.access_token, `${MCP_URL}/`)).not.toBeNull();
    expect(await grants.verifyAccess(tokens.access_token, 'https://elsewhere.example/mcp')).toBeNull();
    expect(() => grants.resourceFor('https://elsewhere.example/mcp')).toThrow(/only issued for the MCP server/);
  });

  it('stores no secret a caller could present, only digests', async () => {
    const tokens = await grants.exchangeCode(client, await code('person-3'), undefined, undefined);
    const stored: string[] = [];
    for (const bucket of ['oauth_grants', 'oauth_refresh_tokens', 'oauth_access_tokens', 'oauth_codes']) {
      const kv = await fixture.nc.jetstream().views.kv(bucket);
      const keys: string[] = [];
      for await (const key of await kv.keys()) keys.push(key);
      for (const key of keys) {
        const entry = await kv.get(key);
        stored.push(key, entry ? new TextDecoder().decode(entry.value) : '');
      }
    }
    const everything = stored.join('\n');
    expect(everything).not.toContain(tokens.access_token);
    expect(everything).not.toContain(tokens.refresh_token as string);
    expect(stored).toContain(secretDigest(tokens.access_token));
  });

  it("lists a person's connected applications and disconnects one client, every grant of it", async () => {
    const tokens = await grants.exchangeCode(client, await code('person-4'), undefined, undefined);
    const again = await grants.exchangeCode(client, await code('person-4'), undefined, undefined);
    const otherClient: ClientRecord = { ...client, client_id: '1c2d3e4f-0000-4000-8000-000000000001', client_name: 'Other' };
    const otherCode = await grants.issueCode({
      clientId: otherClient.client_id,
      personId: 'person-4',
      accountId: 'acc-1',
      redirectUri: 'http://127.0.0.1:1/cb',
      codeChallenge: 'x',
      scopes: ['convert'],
      resource: MCP_URL,
      expiresAt: Date.now() + 60_000,
    });
    const kept = await grants.exchangeCode(otherClient, otherCode, undefined, undefined);
    const listed = await grants.connectedApplications('person-4');
    expect(listed.map((app) => app.clientName).sort()).toEqual(['Other', 'Race Assistant']);
    expect(listed.find((app) => app.clientId === client.client_id)).toMatchObject({ scopes: ['convert'] });
    expect(await grants.connectedApplications('person-5')).toEqual([]);
    expect(await grants.disconnect('person-5', client.client_id)).toBe(false);
    expect(await grants.disconnect('person-4', client.client_id)).toBe(true);
    expect(await grants.verifyAccess(tokens.access_token, MCP_URL)).toBeNull();
    expect(await grants.verifyAccess(again.access_token, MCP_URL)).toBeNull();
    expect(await grants.verifyAccess(kept.access_token, MCP_URL)).not.toBeNull();
    expect((await grants.connectedApplications('person-4')).map((app) => app.clientName)).toEqual(['Other']);
  });

  describe('token lifetimes, on a clock the test moves (spec: access tokens one hour, refresh tokens ninety days)', () => {
    const HOUR_MS = 3_600_000;
    const NINETY_DAYS_MS = 90 * 24 * HOUR_MS;
    let now = Date.now();
    const clock = { now: () => now };
    const timed = () => new OAuthGrants(new OAuthStore(fixture.nc), { mcpPublicUrl: MCP_URL, oauthCodeTtlSeconds: 60 } as GatewayConfig, clock);
    const issued = async () => {
      now = Date.now();
      const timedGrants = timed();
      const fresh = await timedGrants.issueCode({
        clientId: client.client_id,
        personId: 'person-clock',
        accountId: 'acc-1',
        redirectUri: 'http://127.0.0.1:1/cb',
        codeChallenge: 'unused-here',
        scopes: ['convert'],
        resource: MCP_URL,
        expiresAt: now + 60_000,
      });
      return { timedGrants, tokens: await timedGrants.exchangeCode(client, fresh, undefined, undefined), at: now };
    };

    it('refuses an access token an hour after it was issued, and takes it until then', async () => {
      const { timedGrants, tokens, at } = await issued();
      expect(tokens.expires_in).toBe(3_600);
      now = at + HOUR_MS - 1_000;
      expect(await timedGrants.verifyAccess(tokens.access_token, MCP_URL)).not.toBeNull();
      now = at + HOUR_MS + 1_000;
      expect(await timedGrants.verifyAccess(tokens.access_token, MCP_URL)).toBeNull();
    });

    it('refuses a refresh token older than ninety days, and takes it until then', async () => {
      const young = await issued();
      now = young.at + NINETY_DAYS_MS - 60_000;
      const rotated = await young.timedGrants.refresh(client, young.tokens.refresh_token as string, undefined);
      expect(rotated.access_token).toMatch(/^tmat_/);

      const old = await issued();
      now = old.at + NINETY_DAYS_MS + 60_000;
      await expect(old.timedGrants.refresh(client, old.tokens.refresh_token as string, undefined)).rejects.toMatchObject({ errorCode: 'invalid_grant' });
    });
  });
});
