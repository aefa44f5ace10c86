import { openApiDocument } from '../openapi';
import { readBaseline } from './baseline-file';
import { checkAgainstBaseline, deprecationOf } from './contract-check';
import { contractSurface } from './contract-surface';
import { DEPRECATIONS, type Deprecation, deprecationHeaders, registerProblems } from './deprecations';
import { markDeprecations } from './mark-deprecations';

describe('the /v1 contract against its committed baseline', () => {
  const surface = contractSurface(openApiDocument());
  const check = checkAgainstBaseline(readBaseline(), surface, DEPRECATIONS, new Date());

  it('loses no route or field, and changes no type, without a deprecation past its sunset', () => {
    expect(check.breaking).toEqual([]);
  });

  it('has every route and field of the document recorded (run `pnpm contract:baseline` and commit the file)', () => {
    expect(check.unrecorded).toEqual([]);
  });

  it('keeps a register the policy allows: dates, at least 180 days, a replacement', () => {
    expect(registerProblems(DEPRECATIONS)).toEqual([]);
  });

  it('covers the whole API: routes, request and response fields, the Error body', () => {
    expect(surface).toEqual(
      expect.arrayContaining([
        'route get /v1/process/jobs/{jobId}/webhooks',
        'response get /v1/process/jobs/{jobId} 200 tasks[].result.form.url: string (from UploadForm.url)',
        'request post /v1/process/jobs tasks{*}.output_format: string (from ConvertTask.output_format)',
        'error message: string (from Error.message)',
      ]),
    );
  });
});

describe('the baseline check itself', () => {
  const baseline = [
    'route get /v1/things',
    'route get /v1/things/{id}',
    'response get /v1/things/{id} 200 id: string (from Thing.id)',
    'response get /v1/things/{id} 200 colour: string (from Thing.colour)',
    'response get /v1/things/{id} 200 owner: object (from Thing.owner)',
    'response get /v1/things/{id} 200 owner.name: string (from Person.name)',
  ];
  const lostColour = baseline.filter((line) => !line.includes('colour'));
  const colour = (sunsetOn: string): Deprecation => ({ target: { schema: 'Thing', property: 'colour' }, deprecatedOn: '2026-01-01', sunsetOn, replacement: 'hue' });
  const now = new Date('2027-01-01T00:00:00Z');

  it('fails a field removed without a deprecation', () => {
    expect(checkAgainstBaseline(baseline, lostColour, [], now).breaking).toEqual([
      'response get /v1/things/{id} 200 colour: string (from Thing.colour): removed without a deprecation (docs/decisions.md, "Versioning")',
    ]);
  });

  it('fails a route removed without a deprecation', () => {
    const lostRoute = baseline.filter((line) => !line.includes('/v1/things/{id}'));
    expect(checkAgainstBaseline(baseline, lostRoute, [], now).breaking).toHaveLength(5);
  });

  it('fails a changed type: the old line is gone', () => {
    const retyped = baseline.map((line) => line.replace('id: string', 'id: integer'));
    expect(checkAgainstBaseline(baseline, retyped, [], now).breaking).toEqual([expect.stringContaining('id: string (from Thing.id): removed without a deprecation')]);
  });

  it('fails a deprecated field removed before its sunset', () => {
    expect(checkAgainstBaseline(baseline, lostColour, [colour('2027-06-30')], now).breaking).toEqual([
      expect.stringContaining('Thing.colour is deprecated, but its sunset (2027-06-30) has not passed'),
    ]);
  });

  it('lets a deprecated field go once its sunset has passed', () => {
    expect(checkAgainstBaseline(baseline, lostColour, [colour('2026-07-01')], now).breaking).toEqual([]);
  });

  it('lets the fields below a deprecated field go with it, whatever component they are declared in', () => {
    const owner: Deprecation = { target: { schema: 'Thing', property: 'owner' }, deprecatedOn: '2026-01-01', sunsetOn: '2026-07-01', replacement: 'owner_id' };
    const lostOwner = baseline.filter((line) => !line.includes('owner'));
    expect(checkAgainstBaseline(baseline, lostOwner, [owner], now).breaking).toEqual([]);
  });

  it('lets a deprecated route go once its sunset has passed, with all its fields', () => {
    const route: Deprecation = { target: { route: 'get /v1/things/{id}' }, deprecatedOn: '2026-01-01', sunsetOn: '2026-07-01', replacement: 'GET /v1/things' };
    const lostRoute = baseline.filter((line) => !line.includes('/v1/things/{id}'));
    expect(checkAgainstBaseline(baseline, lostRoute, [route], now).breaking).toEqual([]);
  });

  it('reports new lines as unrecorded', () => {
    const added = [...baseline, 'response get /v1/things/{id} 200 size: integer (from Thing.size)'];
    expect(checkAgainstBaseline(baseline, added, [], now)).toEqual({ breaking: [], unrecorded: ['response get /v1/things/{id} 200 size: integer (from Thing.size)'] });
  });

  it('refuses a register entry whose sunset comes sooner than 180 days', () => {
    expect(registerProblems([colour('2026-03-01')])).toEqual(['Thing.colour: sunset 2026-03-01 is sooner than 180 days after 2026-01-01']);
  });
});

describe('announcing a deprecation', () => {
  const document = openApiDocument();
  const surface = contractSurface(document);
  const entry: Deprecation = { target: { schema: 'Job', property: 'note' }, deprecatedOn: '2026-12-01', sunsetOn: '2027-06-01', replacement: 'the sandbox flag' };

  it('names it on every route whose response carries the field, and on no other', () => {
    expect(deprecationOf('get /v1/process/jobs/{jobId}', surface, [entry])).toBe(entry);
    expect(deprecationOf('post /v1/process/jobs', surface, [entry])).toBe(entry);
    expect(deprecationOf('get /v1/formats', surface, [entry])).toBeUndefined();
  });

  it('as RFC 9745 Deprecation (@ unix seconds) and RFC 8594 Sunset (HTTP-date) headers', () => {
    expect(deprecationHeaders(entry)).toEqual({ Deprecation: '@1796083200', Sunset: 'Tue, 01 Jun 2027 00:00:00 GMT' });
  });

  it('marks the field deprecated in the OpenAPI document, with its dates', () => {
    const marked = markDeprecations(structuredClone(document), [
      entry,
      { target: { route: 'get /v1/formats' }, deprecatedOn: '2026-12-01', sunsetOn: '2027-06-01', replacement: 'x' },
    ]);
    const note = (marked.components?.schemas?.['Job'] as { properties: Record<string, { deprecated?: boolean; description?: string }> }).properties['note'];
    expect(note).toMatchObject({ deprecated: true, description: expect.stringContaining('removed after 2027-06-01 (Sunset)') });
    expect(marked.paths?.['/v1/formats']?.get).toMatchObject({ deprecated: true });
  });
});
