import type { Deprecation } from '@transmute/api-schema';
import { DEPRECATION_REGISTER } from '../src/openapi/deprecation-headers.middleware';
import { type GatewayForTest, startGatewayForTest } from './gateway-for-test';

/*
 * The whole gateway in-process (real NATS and FerretDB; nothing answers
 * behind it), its register replaced by one deprecated route: the headers
 * reach the client on every answer of that route, errors included.
 */
describe('Deprecation and Sunset headers on a running gateway', () => {
  const register: Deprecation[] = [{ target: { route: 'get /v1/formats' }, deprecatedOn: '2026-12-01', sunsetOn: '2027-06-01', replacement: 'GET /v1/options' }];
  let gateway: GatewayForTest;
  let baseUrl: string;

  beforeAll(async () => {
    gateway = await startGatewayForTest({
      database: 'gateway_deprecation_it',
      env: { TRANSMUTE_RPC_TIMEOUT_MS: '500' },
      override: (module) => module.overrideProvider(DEPRECATION_REGISTER).useValue(register),
    });
    baseUrl = gateway.baseUrl;
  });

  afterAll(() => gateway?.stop());

  it('sends Deprecation and Sunset on the deprecated route, even on its 401', async () => {
    const reply = await fetch(`${baseUrl}/v1/formats`);
    expect(reply.status).toBe(401);
    expect(reply.headers.get('deprecation')).toBe('@1796083200');
    expect(reply.headers.get('sunset')).toBe('Tue, 01 Jun 2027 00:00:00 GMT');
  });

  it('sends neither on a route that is not deprecated', async () => {
    const reply = await fetch(`${baseUrl}/v1/options?input_format=png&output_format=jpg`);
    expect(reply.status).toBe(401);
    expect(reply.headers.get('deprecation')).toBeNull();
    expect(reply.headers.get('sunset')).toBeNull();
  });
});
