'use strict';
// A webhook receiver for the cluster tests: it records every POST/PUT it gets
// (method, path, headers, raw body) and lists them at GET /deliveries, so a
// test can check what Transmute delivered, signature headers included.
//
//   POST /<any path>          recorded, answers 200
//   POST /status/<code>/...   recorded, answers <code> (to provoke retries)
//   GET /deliveries           every recorded delivery, oldest first (JSON)
//   DELETE /deliveries        forgets them
//   GET /healthz, /readyz     200
//
// Plain Node.js, no dependencies: the image is the node base plus this file.
const { Buffer } = require('node:buffer');
const http = require('node:http');
const { URL } = require('node:url');

const port = Number(process.env.PORT || 8099);
const maxBodyBytes = 1024 * 1024;
const maxKept = 10000;
const deliveries = [];
let nextId = 1;

/** One JSON line per event on stdout, the container's log. */
function log(fields) {
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), ...fields })}\n`);
}

function send(response, status, body) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  response.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json' });
  response.end(text);
}

function record(request, response, body) {
  const url = new URL(request.url, 'http://receiver');
  const delivery = {
    id: nextId++,
    receivedAt: new Date().toISOString(),
    method: request.method,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: request.headers,
    body: body.toString('utf8'),
  };
  deliveries.push(delivery);
  if (deliveries.length > maxKept) deliveries.shift();
  log({ msg: 'delivery', id: delivery.id, method: delivery.method, path: delivery.path, bytes: body.length });
  const forced = /^\/status\/(\d{3})(\/|$)/.exec(url.pathname);
  send(response, forced ? Number(forced[1]) : 200, { received: delivery.id });
}

const server = http.createServer((request, response) => {
  const path = new URL(request.url, 'http://receiver').pathname;
  if (request.method === 'GET' && (path === '/healthz' || path === '/readyz')) return send(response, 200, 'ok');
  if (path === '/deliveries' && request.method === 'GET') return send(response, 200, deliveries);
  if (path === '/deliveries' && request.method === 'DELETE') {
    deliveries.length = 0;
    return send(response, 200, { cleared: true });
  }
  if (request.method !== 'POST' && request.method !== 'PUT') return send(response, 405, 'POST or PUT a delivery; GET /deliveries lists them');

  const chunks = [];
  let size = 0;
  request.on('data', (chunk) => {
    size += chunk.length;
    if (size <= maxBodyBytes) chunks.push(chunk);
  });
  request.on('end', () => (size > maxBodyBytes ? send(response, 413, 'body larger than 1 MiB') : record(request, response, Buffer.concat(chunks))));
  request.on('error', () => response.destroy());
});

server.listen(port, process.env.HOST || '0.0.0.0', () => log({ msg: 'webhook receiver listening', port }));

// PID 1 in a container: stop at once on the signals an engine sends.
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
