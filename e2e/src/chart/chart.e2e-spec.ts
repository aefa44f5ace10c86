/**
 * The Helm chart and the images, verified where no cluster runs and no image
 * can be built: helm lint, helm template with four value sets, a strict
 * schema check of every rendered manifest (Kubernetes' own schemas and the
 * CRDs of KEDA and the Prometheus Operator), kube-score, hadolint on every
 * Dockerfile, and the consistency of the chart with each service's config.
 * A missing tool fails with how to install it (make test-tools); nothing skips.
 */
import { execFile, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Consumers, Streams } from '@transmute/contracts';
import { type ConfigShape, loadConfig } from '@transmute/service-kit';

const repo = resolve(__dirname, '../../..');
const chartDir = join(repo, 'charts/transmute');
const VALUE_SETS = ['minimal', 'keda', 'external', 'all-features'] as const;
/** Kubernetes versions the manifests must be valid for: the chart's kubeVersion floor and a recent one. */
const KUBE_VERSIONS = '1.27,1.33';
/**
 * Variables whose defaults only suit one developer machine (loopback addresses,
 * relative paths): a service that reads one must get it from the chart, even
 * though its own validation would accept the default.
 */
const MUST_SET_IF_READ = [
  'TRANSMUTE_NATS_URL',
  'TRANSMUTE_HTTP_HOST',
  'TRANSMUTE_HTTP_PORT',
  'TRANSMUTE_MONGODB_URI',
  'TRANSMUTE_PUBLIC_URL',
  'TRANSMUTE_MCP_PUBLIC_URL',
  'TRANSMUTE_STORAGE_DRIVER',
  'TRANSMUTE_STORAGE_FS_ROOT',
  'TRANSMUTE_WORK_DIR',
  'TRANSMUTE_SHUTDOWN_GRACE_MS',
];
/** helm built by `go install` carries no default cluster version (it would assume 1.20), so name one. */
const HELM_KUBE = ['--kube-version', '1.33.0'];

function tool(relative: string): string {
  const path = join(repo, relative);
  if (!existsSync(path)) {
    throw new Error(`${relative} is missing: run \`make test-tools\` (bash libs/devstack/bin/install-tools.sh test), which installs it from libs/devstack/bin/packages`);
  }
  return path;
}

function run(command: string, args: string[]): { status: number; output: string } {
  const result = spawnSync(command, args, { cwd: repo, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, HELM_NO_PLUGINS: '1' } });
  if (result.error) throw result.error;
  return { status: result.status ?? 1, output: `${result.stdout}${result.stderr}` };
}

type Manifest = { apiVersion: string; kind: string; metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> }; [key: string]: any };

interface EnvEntry {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } };
}

/**
 * Each service's configuration shape, taken from its own entry point: main.ts
 * is loaded with runService replaced by a recorder, so whatever the service
 * validates at start-up (config.ts or an inline shape) is what is compared.
 */
function configShapeOf(service: string): ConfigShape {
  let shape: ConfigShape | undefined;
  jest.isolateModules(() => {
    jest.doMock('@transmute/service-kit', () => ({
      ...jest.requireActual('@transmute/service-kit'),
      runService: (definition: { config: ConfigShape }) => {
        shape = definition.config;
        return new Promise(() => undefined);
      },
    }));
    // A fresh load of main.ts under the mock above; isolateModules is synchronous, so no import().
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require(join(repo, 'services', service, 'src/main'));
  });
  jest.dontMock('@transmute/service-kit');
  if (!shape) throw new Error(`services/${service}/src/main.ts did not call runService`);
  return shape;
}

describe('charts/transmute', () => {
  let helm: string;
  let work: string;
  let chart: string;
  const rendered = new Map<string, string>();
  const manifests = new Map<string, Manifest[]>();

  beforeAll(() => {
    helm = tool('.tools/bin/helm');
    work = mkdtempSync(join(tmpdir(), 'transmute-chart-'));
    chart = chartDir;

    for (const set of VALUE_SETS) {
      const { status, output } = run(helm, ['template', 'transmute', chart, ...HELM_KUBE, '--namespace', 'transmute', '-f', join(chart, 'ci', `${set}-values.yaml`)]);
      if (status !== 0) throw new Error(`helm template with ci/${set}-values.yaml failed:\n${output}`);
      const file = join(work, `${set}.yaml`);
      writeFileSync(file, output);
      rendered.set(set, file);
    }
    const python = tool('.tools/venv/bin/python');
    const json = join(work, 'manifests.json');
    const check = run(python, [join(chartDir, 'tests/validate_manifests.py'), '--kube-versions', KUBE_VERSIONS, '--json-out', json, ...rendered.values()]);
    schemaReport = check;
    const docs = JSON.parse(readFileSync(json, 'utf8')) as Record<string, Manifest[]>;
    for (const set of VALUE_SETS) manifests.set(set, docs[rendered.get(set)!]!);
  });
  let schemaReport: { status: number; output: string };

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** The manifests of one more rendering, parsed. */
  function renderDocs(args: string[]): Manifest[] {
    const { status, output } = run(helm, ['template', 'transmute', chart, ...HELM_KUBE, '--namespace', 'transmute', ...args]);
    if (status !== 0) throw new Error(`helm template ${args.join(' ')} failed:\n${output}`);
    const parsed = spawnSync(tool('.tools/venv/bin/python'), ['-c', 'import json, sys, yaml; json.dump([d for d in yaml.safe_load_all(sys.stdin) if d], sys.stdout)'], {
      input: output,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    if (parsed.status !== 0) throw new Error(parsed.stderr);
    return JSON.parse(parsed.stdout) as Manifest[];
  }

  it.each(VALUE_SETS)('passes helm lint --strict with ci/%s-values.yaml', (set) => {
    const { status, output } = run(helm, ['lint', '--strict', chart, ...HELM_KUBE, '-f', join(chart, 'ci', `${set}-values.yaml`)]);
    expect({ status, output }).toEqual({ status: 0, output: expect.stringContaining('0 chart(s) failed') });
  });

  it('renders manifests that match the Kubernetes and CRD schemas, strictly', () => {
    expect(schemaReport.output).toMatch(/checked \d+ manifests/);
    expect({ status: schemaReport.status, output: schemaReport.output }).toEqual({ status: 0, output: expect.stringContaining(': 0 problems') });
  });

  it('finds schema problems (the check can fail)', () => {
    const broken = join(work, 'broken.yaml');
    writeFileSync(broken, readFileSync(rendered.get('minimal')!, 'utf8').replace('revisionHistoryLimit: 5', 'revisionHistoryLimit: 5\n  replicaz: 2'));
    const { status, output } = run(tool('.tools/venv/bin/python'), [join(chartDir, 'tests/validate_manifests.py'), broken]);
    expect(status).toBe(1);
    expect(output).toContain('replicaz');
  });

  it.each(VALUE_SETS)('has a clean kube-score report with ci/%s-values.yaml', (set) => {
    const { status, output } = run(tool('.tools/bin/kube-score'), [
      'score',
      '--output-format',
      'ci',
      // Tags are immutable (versions, or skaffold's input digests), so IfNotPresent is right.
      '--ignore-test',
      'container-image-pull-policy',
      rendered.get(set)!,
    ]);
    const findings = output.split('\n').filter((line) => /^\[(CRITICAL|WARNING)\]/.test(line));
    expect(findings).toEqual([]);
    expect(status).toBe(0);
  });

  it('rejects wrong values at install time with a message naming the value', () => {
    const cases: Array<[string[], RegExp]> = [
      [['--set', 'converter.families.video.concurrency=0'], /concurrency/],
      [['--set', 'storage.driver=gcs'], /driver/],
      [['--set', 'gateway.config.NODE_OPTIONS=x'], /NODE_OPTIONS/],
      [['--set', 'nats.enabled=false'], /externalNats.url is required/],
      [['--set', 'ferretdb.enabled=false'], /externalMongodb.uri is required/],
      [['--set', 'minio.enabled=false'], /storage.s3.accessKeyId is required/],
      [['--set', 'nats.replicas=0'], /replicas/],
      [['--set', 'gateway.plans.pro.convertAllowance=500'], /convertAllowance/],
    ];
    for (const [args, message] of cases) {
      const { status, output } = run(helm, ['template', 'transmute', chart, ...HELM_KUBE, '-f', join(chart, 'ci/minimal-values.yaml'), ...args]);
      expect({ args, status }).toEqual({ args, status: 1 });
      expect(output).toMatch(message);
    }
  });

  describe('defaults: a plain cluster, no internet, nothing given', () => {
    const secretData = (docs: Manifest[], name: string) => docs.find((d) => d.kind === 'Secret' && d.metadata.name === name)?.['stringData'] as Record<string, string>;
    const named = (docs: Manifest[], kind: string, name: string) => docs.find((d) => d.kind === kind && d.metadata.name === name);
    const settingsOf = (docs: Manifest[], service: string) => named(docs, 'ConfigMap', `transmute-${service}`)?.['data'] as Record<string, string>;

    it('declares no chart dependencies, so helm installs it without fetching anything', () => {
      // Helm refuses to install a chart whose declared dependencies are missing, even when switched off.
      expect(readFileSync(join(chartDir, 'Chart.yaml'), 'utf8')).not.toMatch(/^dependencies:/m);
    });

    it('asks only for ReadWriteOnce volumes', () => {
      const docs = renderDocs([]);
      const claims = [
        ...docs.filter((d) => d.kind === 'PersistentVolumeClaim').map((d) => d['spec']),
        ...docs.filter((d) => d.kind === 'StatefulSet').flatMap((d) => d['spec'].volumeClaimTemplates.map((t: Manifest) => t['spec'])),
      ];
      expect(claims).toHaveLength(3); // one template for the NATS servers, FerretDB's, MinIO's
      for (const claim of claims) expect(claim.accessModes).toEqual(['ReadWriteOnce']);
    });

    it('runs NATS as a three-server JetStream cluster and has every service replicate on all three', () => {
      const docs = renderDocs([]);
      const nats = named(docs, 'StatefulSet', 'transmute-nats')!;
      expect(nats['spec']).toMatchObject({ replicas: 3, podManagementPolicy: 'Parallel', serviceName: 'transmute-nats-headless' });
      const conf = named(docs, 'ConfigMap', 'transmute-nats')!['data']['nats.conf'] as string;
      for (const i of [0, 1, 2]) expect(conf).toContain(`nats://transmute-nats-${i}.transmute-nats-headless.transmute.svc.cluster.local:6222`);
      expect(conf).toContain('server_name: $POD_NAME');
      expect(named(docs, 'Service', 'transmute-nats-headless')!['spec'].publishNotReadyAddresses).toBe(true);
      for (const service of ['job-orchestrator', 'gateway', 'webhook-dispatcher', 'importer']) expect(settingsOf(docs, service)['TRANSMUTE_NATS_REPLICAS']).toBe('3');
      expect(settingsOf(docs, 'gateway')['TRANSMUTE_NATS_URL']).toBe('nats://transmute-nats.transmute.svc.cluster.local:4222');
      // One server: no cluster block, one copy.
      const single = renderDocs(['--set', 'nats.replicas=1']);
      expect(named(single, 'ConfigMap', 'transmute-nats')!['data']['nats.conf']).not.toContain('cluster {');
      expect(settingsOf(single, 'job-orchestrator')['TRANSMUTE_NATS_REPLICAS']).toBe('1');
    });

    it('starts a clustered NATS server only once the meta group holds every server', () => {
      const natsContainer = (docs: Manifest[]) => named(docs, 'StatefulSet', 'transmute-nats')!['spec'].template.spec.containers[0] as Manifest;
      const healthz = { httpGet: { path: '/healthz?js-meta-only=true', port: 'monitor' } };
      for (const replicas of ['3', '5']) {
        const nats = natsContainer(renderDocs(['--set', `nats.replicas=${replicas}`]));
        expect(nats['startupProbe']).toEqual({
          exec: { command: ['/usr/local/bin/nats-meta-check', '--expect', replicas, '--timeout', '4s'] },
          timeoutSeconds: 5,
          periodSeconds: 5,
          failureThreshold: 36,
        });
        // A group short of a member later is no reason to restart a server that serves.
        expect(nats['livenessProbe']).toMatchObject({ httpGet: { path: '/healthz?js-enabled-only=true' } });
      }
      // One server has no meta group; an image without the program (upstream nats) opts out.
      for (const args of [
        ['--set', 'nats.replicas=1'],
        ['--set', 'nats.metaCheckProbe=false'],
      ]) {
        expect(natsContainer(renderDocs(args))['startupProbe']).toEqual({ ...healthz, periodSeconds: 5, failureThreshold: 36 });
      }
    });

    it('gives NATS a configuration its own server accepts, clustered or alone', () => {
      // nats-server -t parses the file as the pod would (it refused a 20 s lame-duck period once, in the cluster run).
      const dir = mkdtempSync(join(tmpdir(), 'nats-conf-'));
      try {
        for (const replicas of ['3', '1']) {
          const file = join(dir, `nats-${replicas}.conf`);
          writeFileSync(file, named(renderDocs(['--set', `nats.replicas=${replicas}`]), 'ConfigMap', 'transmute-nats')!['data']['nats.conf']);
          const result = spawnSync(tool('.tools/bin/nats-server'), ['-t', '-c', file], { encoding: 'utf8', env: { ...process.env, POD_NAME: 'transmute-nats-0' } });
          expect({ replicas, status: result.status, output: `${result.stdout}${result.stderr}`.trim() }).toEqual({
            replicas,
            status: 0,
            output: expect.stringContaining('is valid'),
          });
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('keeps files in the bundled MinIO, creates the bucket, and generates its credentials once', () => {
      const docs = renderDocs([]);
      const gateway = settingsOf(docs, 'gateway');
      expect(gateway).toMatchObject({
        TRANSMUTE_STORAGE_DRIVER: 's3',
        TRANSMUTE_STORAGE_S3_ENDPOINT: 'http://transmute-minio.transmute.svc.cluster.local:9000',
        TRANSMUTE_STORAGE_S3_CREATE_BUCKET: 'true',
        TRANSMUTE_STORAGE_S3_BUCKET: 'transmute',
      });
      const keys = secretData(docs, 'transmute-secrets');
      expect(keys['s3-access-key-id']).toMatch(/^transmute-[a-z0-9]{12}$/);
      expect(keys['s3-secret-access-key']).toMatch(/^[A-Za-z0-9]{40}$/);
      const minio = named(docs, 'StatefulSet', 'transmute-minio')!['spec'].template.spec.containers[0];
      expect(minio.env).toEqual(expect.arrayContaining([{ name: 'MINIO_ROOT_PASSWORD', valueFrom: { secretKeyRef: { name: 'transmute-secrets', key: 's3-secret-access-key' } } }]));
      // Generated per install (kept on upgrade by lookup, which needs a cluster), never a fixed default.
      expect(secretData(renderDocs([]), 'transmute-secrets')['s3-secret-access-key']).not.toBe(keys['s3-secret-access-key']);
      const given = secretData(renderDocs(['--set', 'storage.s3.accessKeyId=given-id,storage.s3.secretAccessKey=given-secret']), 'transmute-secrets');
      expect(given).toMatchObject({ 's3-access-key-id': 'given-id', 's3-secret-access-key': 'given-secret' });
    });

    it('signs links for the public endpoint and lets gateway, mcp and MinIO be node ports', () => {
      const docs = renderDocs([
        '--set',
        'storage.s3.publicEndpoint=http://192.0.2.10:30900,minio.service.type=NodePort,minio.service.nodePort=30900,gateway.service.type=NodePort,gateway.service.nodePort=30080',
      ]);
      expect(settingsOf(docs, 'importer')['TRANSMUTE_STORAGE_S3_PUBLIC_ENDPOINT']).toBe('http://192.0.2.10:30900');
      expect(named(docs, 'Service', 'transmute-minio')!['spec']).toMatchObject({ type: 'NodePort', ports: [expect.objectContaining({ nodePort: 30900 })] });
      expect(named(docs, 'Service', 'transmute-gateway')!['spec']).toMatchObject({ type: 'NodePort', ports: [expect.objectContaining({ nodePort: 30080 })] });
      expect(named(docs, 'Service', 'transmute-mcp')!['spec'].type).toBe('ClusterIP');
    });

    it('points the durable records at the bundled FerretDB, run with FerretDB’s own flags', () => {
      const docs = renderDocs([]);
      expect(secretData(docs, 'transmute-secrets')['mongodb-uri']).toBe('mongodb://transmute-ferretdb.transmute.svc.cluster.local:27017/transmute');
      const ferretdb = named(docs, 'StatefulSet', 'transmute-ferretdb')!['spec'].template.spec.containers[0];
      expect(ferretdb.args).toEqual(['--listen-addr=:27017', '--handler=sqlite', '--sqlite-url=file:/state/', '--telemetry=disable']);
    });
  });

  describe('helm test', () => {
    const testPod = () => {
      const docs = renderDocs([]);
      const pod = docs.find((d) => d.kind === 'Pod' && d.metadata.annotations?.['helm.sh/hook'] === 'test');
      if (!pod) throw new Error('no Pod with the helm.sh/hook: test annotation');
      return { docs, pod };
    };

    it("has a hook pod that calls the gateway's Service", () => {
      const { docs, pod } = testPod();
      const container = pod['spec'].containers[0];
      const url = (container.env as EnvEntry[]).find((entry) => entry.name === 'GATEWAY_URL')?.value;
      expect(url).toBe('http://transmute-gateway.transmute.svc:8080');
      const service = docs.find((d) => d.kind === 'Service' && d.metadata.name === 'transmute-gateway');
      expect(service?.['spec'].ports).toEqual([expect.objectContaining({ port: 8080 })]);
      expect(container.image).toBe('transmute/gateway:0.1.0');
    });

    it.each([
      [200, 0, 'the gateway answers'],
      [503, 1, 'answered 503'],
    ])('its check passes only when the gateway answers 200 (gateway answering %d)', async (status, exitCode, said) => {
      const container = testPod().pod['spec'].containers[0];
      const seen: string[] = [];
      const server = createServer((request, response) => {
        seen.push(request.url ?? '');
        response.writeHead(status).end();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        expect(container.command).toEqual(['node', '-e']);
        // The pod's own command and script, run by this Node (the image's is the same major).
        const outcome = await promisify(execFile)(process.execPath, [...container.command.slice(1), container.args[0]], { env: { ...process.env, GATEWAY_URL: url } }).then(
          ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
          (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, output: error.stdout + error.stderr }),
        );
        expect(outcome.code).toBe(exitCode);
        expect(outcome.output).toContain(said);
        expect(seen[0]).toBe('/readyz');
        if (status === 200) expect(seen).toEqual(['/readyz', '/openapi.json']);
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    });
  });

  describe('consistency with the services', () => {
    const shapes = new Map<string, ConfigShape>();
    const shapeOf = (service: string) => {
      if (!shapes.has(service)) shapes.set(service, configShapeOf(service));
      return shapes.get(service)!;
    };

    /** What is wrong with the variables each workload gets, measured against its service's own configuration. */
    function workloadFindings(set: string, docs: Manifest[]) {
      const configMaps = new Map(docs.filter((d) => d.kind === 'ConfigMap').map((d) => [d.metadata.name, d.data as Record<string, string>]));
      const secret = docs.find((d) => d.kind === 'Secret');
      const deployments = docs.filter((d) => d.kind === 'Deployment');
      expect(deployments.length).toBeGreaterThanOrEqual(8);
      const findings: Array<{ where: string; unread?: string[]; unset?: string[]; problems?: string[] }> = [];
      for (const deployment of deployments) {
        const pod = deployment.spec.template;
        const service: string = pod.metadata.labels['transmute.io/service'];
        const container = pod.spec.containers[0];
        const env: Record<string, string> = {};
        for (const source of container.envFrom ?? []) Object.assign(env, configMaps.get(source.configMapRef.name));
        for (const entry of (container.env ?? []) as EnvEntry[]) {
          const ref = entry.valueFrom?.secretKeyRef;
          if (!ref) env[entry.name] = entry.value ?? '';
          // An existingSecret is not rendered: a value of the right form stands in for its key.
          else if (secret) {
            const value = secret.stringData?.[ref.key];
            if (value !== undefined) env[entry.name] = value;
            else if (!ref.optional) findings.push({ where: deployment.metadata.name, problems: [`secret key ${ref.key} is not in the chart's Secret`] });
          } else if (!ref.optional) env[entry.name] = ref.key === 'mongodb-uri' ? 'mongodb://transmute:secret@mongodb:27017/transmute' : 'x'.repeat(48);
        }
        const shape = shapeOf(service);
        const read = new Set(Object.values(shape).map((variable) => variable.name));
        const where = `${set}: ${deployment.metadata.name} (services/${service})`;
        // Every variable the chart sets is one the service reads...
        const unread = Object.keys(env).filter((name) => !read.has(name));
        if (unread.length > 0) findings.push({ where, unread });
        const unset = MUST_SET_IF_READ.filter((name) => read.has(name) && !(name in env))
          // The fs driver's directory means nothing to the s3 driver.
          .filter((name) => !(name === 'TRANSMUTE_STORAGE_FS_ROOT' && env['TRANSMUTE_STORAGE_DRIVER'] !== 'fs'));
        if (unset.length > 0) findings.push({ where, unset });
        // ...and with them the service's own validation passes, so nothing required is missing.
        const problems = configProblems(shape, env);
        if (problems.length > 0) findings.push({ where, problems });
        expect(Number(env['TRANSMUTE_HTTP_PORT'])).toBe(container.ports[0].containerPort);
      }
      return findings;
    }

    it.each(VALUE_SETS)('gives every workload exactly the variables its service reads, valid (ci/%s-values.yaml)', (set) => {
      expect(workloadFindings(set, manifests.get(set)!)).toEqual([]);
    });

    it('offers only storage drivers the services know', () => {
      const schema = JSON.parse(readFileSync(join(chartDir, 'values.schema.json'), 'utf8'));
      const drivers: string[] = schema.properties.storage.properties.driver.enum;
      expect(drivers).toContain('fs');
      for (const driver of drivers) {
        const s3 = ['--set', 'storage.s3.endpoint=http://s3.example.com:9000,storage.s3.accessKeyId=id,storage.s3.secretAccessKey=secret'];
        const docs = renderDocs(['-f', join(chart, 'ci/minimal-values.yaml'), '--set', `storage.driver=${driver}`, ...s3]);
        expect(workloadFindings(`storage.driver=${driver}`, docs)).toEqual([]);
      }
    });

    it('renders the skaffold development values (values-dev.yaml) consistently', () => {
      const docs = renderDocs(['-f', join(chart, 'values-dev.yaml')]);
      expect(workloadFindings('values-dev', docs)).toEqual([]);
      const gateway = docs.find((d) => d.kind === 'Deployment' && d.metadata.name === 'transmute-gateway')!;
      expect(gateway.spec.replicas).toBe(1);
    });

    it('names the JetStream stream and consumer of each family as the services do', () => {
      const scaled = manifests.get('keda')!.filter((d) => d.kind === 'ScaledObject');
      const families = manifests.get('keda')!.filter((d) => d.kind === 'Deployment' && d.metadata.labels?.['transmute.io/family']);
      expect(scaled).toHaveLength(families.length);
      for (const object of scaled) {
        const target = families.find((d) => d.metadata.name === object.spec.scaleTargetRef.name)!;
        const family = target.metadata.labels!['transmute.io/family']!;
        expect(object.spec.triggers[0]).toMatchObject({
          type: 'nats-jetstream',
          metadata: { stream: Streams.tasks.name, consumer: Consumers.converter(family) },
        });
      }
      const document = scaled.find((o) => o.metadata.name.endsWith('converter-document'))!;
      expect(document.spec.minReplicaCount).toBe(0);
    });

    it('lets gateway and mcp take clients, MinIO anyone, the other servers only the release, and the rest only metrics scrapes', () => {
      const policies = manifests.get('all-features')!.filter((d) => d.kind === 'NetworkPolicy');
      expect(policies.length).toBeGreaterThanOrEqual(11);
      const fromNamespace = (peer: any, name: string) => peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === name;
      const fromRelease = (peer: any) => peer.podSelector?.matchLabels?.['app.kubernetes.io/instance'] === 'transmute';
      for (const policy of policies) {
        const service = policy.spec.podSelector.matchLabels['transmute.io/service'];
        const sources = (policy.spec.ingress ?? []).flatMap((rule: { from?: unknown[] }) => rule.from ?? [{ anyone: true }]);
        const anyone = sources.some((peer: any) => peer.anyone);
        if (service === 'minio') expect({ service, anyone }).toEqual({ service, anyone: true });
        else if (service === 'gateway' || service === 'mcp')
          expect({ service, fromMonitoringOnly: sources.every((peer: any) => fromNamespace(peer, 'monitoring')) }).toEqual({ service, fromMonitoringOnly: false });
        else if (['nats', 'ferretdb'].includes(service)) {
          const strangers = sources.filter((peer: any) => !fromRelease(peer) && !fromNamespace(peer, 'monitoring') && !fromNamespace(peer, 'keda'));
          expect({ service, strangers }).toEqual({ service, strangers: [] });
        } else {
          const fromMonitoring = sources.every((peer: any) => fromNamespace(peer, 'monitoring'));
          expect({ service, fromMonitoring }).toEqual({ service, fromMonitoring: true });
        }
      }
    });

    it('lets only import, export and webhook workers reach the outside world, never private ranges', () => {
      const policies = manifests.get('minimal')!.filter((d) => d.kind === 'NetworkPolicy');
      const outside = policies
        .filter((policy) =>
          (policy.spec.egress ?? []).some((rule: { to?: Array<{ ipBlock?: { cidr: string; except?: string[] } }> }) =>
            (rule.to ?? []).some((peer) => peer.ipBlock?.cidr === '0.0.0.0/0' && peer.ipBlock.except?.includes('10.0.0.0/8')),
          ),
        )
        .map((policy) => policy.spec.podSelector.matchLabels['transmute.io/service'])
        .sort();
      expect(outside).toEqual(['exporter', 'importer', 'webhook-dispatcher']);
    });
  });

  describe('images', () => {
    // Every service with a process of its own; services/website is static files shipped inside the gateway's image.
    const services = readdirSync(join(repo, 'services')).filter((service) => existsSync(join(repo, 'services', service, 'src', 'main.ts')));
    type Artifact = { image: string; context: string; docker: { dockerfile: string; target: string; buildArgs: Record<string, string> } };
    const artifacts = (): Artifact[] => {
      const parsed = spawnSync(tool('.tools/venv/bin/python'), ['-c', "import json, sys, yaml; json.dump(yaml.safe_load(sys.stdin)['build']['artifacts'], sys.stdout)"], {
        input: readFileSync(join(repo, 'skaffold.yaml'), 'utf8'),
        encoding: 'utf8',
      });
      if (parsed.status !== 0) throw new Error(parsed.stderr);
      return JSON.parse(parsed.stdout) as Artifact[];
    };

    it('builds every image from the one Dockerfile, clean under hadolint', () => {
      const { status, output } = run(tool('.tools/venv/bin/hadolint'), ['--no-color', '--failure-threshold', 'info', 'Dockerfile']);
      expect({ status, output }).toEqual({ status: 0, output: '' });
      const stages = [...readFileSync(join(repo, 'Dockerfile'), 'utf8').matchAll(/^FROM \S+ AS (\S+)$/gm)].map((match) => match[1]);
      for (const artifact of artifacts()) {
        const { dockerfile, target, buildArgs } = artifact.docker;
        expect({ image: artifact.image, context: artifact.context, dockerfile, target: stages.includes(target) }).toEqual({
          image: artifact.image,
          context: '.',
          dockerfile: 'Dockerfile',
          target: true,
        });
        expect({ image: artifact.image, service: services.includes(buildArgs['SERVICE'] ?? '') }).toEqual({ image: artifact.image, service: true });
      }
      // Each service is built; the gateway and the converter by their own targets, the others with their port.
      const built = artifacts().map((artifact) => [artifact.docker.buildArgs['SERVICE'], artifact.docker.target, artifact.docker.buildArgs['HTTP_PORT'] !== undefined]);
      for (const service of services) {
        const target = service === 'gateway' || service === 'converter' ? service : 'service';
        expect(built).toContainEqual([service, target, target === 'service']);
      }
    });

    it('has a package list for every family the chart runs, and LibreOffice only in document', () => {
      const families = manifests
        .get('minimal')!
        .filter((d) => d.kind === 'Deployment' && d.metadata.labels?.['transmute.io/family'])
        .map((d) => d.metadata.labels!['transmute.io/family']!);
      expect(families).toEqual(expect.arrayContaining(['image', 'video', 'document']));
      for (const family of families) {
        const list = join(repo, 'services/converter/docker/packages', `${family}.txt`);
        expect({ family, list: existsSync(list) }).toEqual({ family, list: true });
        const hasLibreOffice = /^libreoffice/m.test(readFileSync(list, 'utf8'));
        expect({ family, hasLibreOffice }).toEqual({ family, hasLibreOffice: family === 'document' });
      }
    });
  });
});

function configProblems(shape: ConfigShape, env: Record<string, string>): string[] {
  try {
    loadConfig(shape, env);
    return [];
  } catch (error) {
    return (error as { problems?: string[] }).problems ?? [String(error)];
  }
}
