/**
 * A webhook receiver that runs as a pod of the cluster, so deliveries cross
 * the cluster's network like a customer's would. It is the gateway's image
 * running a few lines of Node (nothing to pull); it answers 200, keeps every
 * delivery in memory, and shows them at GET /deliveries on a node port.
 */

export const RECEIVER_NODE_PORT = 30099;

/** What the receiver saw: one entry per POST, attempts included. */
export interface ReceivedDelivery {
  delivery: string;
  event: string;
  jobId: string;
  attempt: number;
}

const SCRIPT = `
const http = require('node:http');
const seen = [];
http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/deliveries') return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(seen));
  if (req.method !== 'POST') return res.writeHead(404).end();
  const chunks = [];
  req.on('data', (c) => chunks.push(c)).on('end', () => {
    let body = {};
    try { body = JSON.parse(Buffer.concat(chunks).toString('utf8')); } catch {}
    seen.push({ delivery: req.headers['x-service-delivery'], event: req.headers['x-service-event'], jobId: body.id, attempt: Number(req.headers['x-service-attempt']) });
    res.writeHead(200).end();
  });
}).listen(8080, '0.0.0.0');
`;

/** The receiver's Pod and Service, applied by the test in the release's namespace. */
export function receiverManifests(namespace: string, image: string): string {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'webhook-receiver', namespace, labels: { app: 'webhook-receiver' } },
    spec: {
      automountServiceAccountToken: false,
      securityContext: { runAsNonRoot: true, runAsUser: 10001, runAsGroup: 10001, seccompProfile: { type: 'RuntimeDefault' } },
      containers: [
        {
          name: 'receiver',
          image,
          imagePullPolicy: 'Never',
          command: ['node', '-e', SCRIPT],
          ports: [{ name: 'http', containerPort: 8080 }],
          readinessProbe: { httpGet: { path: '/deliveries', port: 'http' }, periodSeconds: 2 },
          resources: { requests: { cpu: '10m', memory: '48Mi' }, limits: { cpu: '200m', memory: '128Mi' } },
          securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
        },
      ],
    },
  };
  const service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'webhook-receiver', namespace },
    spec: { type: 'NodePort', selector: { app: 'webhook-receiver' }, ports: [{ name: 'http', port: 8080, targetPort: 'http', nodePort: RECEIVER_NODE_PORT }] },
  };
  return [pod, service].map((doc) => JSON.stringify(doc)).join('\n---\n');
}
