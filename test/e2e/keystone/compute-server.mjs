#!/usr/bin/env node
// A compute-like API that trusts only Keystone: every request's X-Auth-Token is validated with
// GET /v3/auth/tokens (as keystonemiddleware does), using a service token of the admin user.
//
//   node compute-server.mjs STATE_DIR PORT KEYSTONE_URL
//
// STATE_DIR holds tls.crt/tls.key and admin-password (mode 0600). Answers GET /v2.1/servers with
// {"servers": []} for a project-scoped token, 401 otherwise.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { join } from 'node:path';

const [stateDir, portText, keystoneUrl] = process.argv.slice(2);
if (!stateDir || !portText || !keystoneUrl) {
  console.error('usage: compute-server.mjs STATE_DIR PORT KEYSTONE_URL');
  process.exit(2);
}
const adminPassword = readFileSync(join(stateDir, 'admin-password'), 'utf8').trim();
const TIMEOUT_MS = 10_000;

let serviceToken;
async function fetchServiceToken() {
  const res = await fetch(`${keystoneUrl}/v3/auth/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      auth: {
        identity: {
          methods: ['password'],
          password: { user: { name: 'admin', domain: { id: 'default' }, password: adminPassword } },
        },
        scope: { project: { name: 'admin', domain: { id: 'default' } } },
      },
    }),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (res.status !== 201) throw new Error(`service sign-in answered ${res.status}`);
  return res.headers.get('x-subject-token');
}

/** The validated token body, or undefined when Keystone does not accept the token. */
async function validate(token, retry = true) {
  serviceToken ??= await fetchServiceToken();
  const res = await fetch(`${keystoneUrl}/v3/auth/tokens`, {
    headers: { 'x-auth-token': serviceToken, 'x-subject-token': token },
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (res.status === 401 && retry) {
    serviceToken = undefined;
    return validate(token, false);
  }
  if (res.status !== 200) return undefined;
  return (await res.json()).token;
}

function send(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
const unauthorized = (res) =>
  send(res, 401, {
    error: { code: 401, title: 'Unauthorized', message: 'The request you have made requires authentication.' },
  });

const tls = { cert: readFileSync(join(stateDir, 'tls.crt')), key: readFileSync(join(stateDir, 'tls.key')) };
const server = createServer(tls, async (req, res) => {
  const path = new URL(req.url ?? '/', 'https://127.0.0.1').pathname.replace(/\/+$/, '');
  if (req.method !== 'GET' || !['/v2.1/servers', '/v2.1/servers/detail'].includes(path)) {
    return send(res, 404, { itemNotFound: { code: 404, message: 'The resource could not be found.' } });
  }
  const token = req.headers['x-auth-token'];
  if (typeof token !== 'string' || token === '') return unauthorized(res);
  try {
    const body = await validate(token);
    if (!body?.project) return unauthorized(res);
    send(res, 200, { servers: [] });
  } catch (error) {
    send(res, 503, { error: { code: 503, message: `Keystone unavailable: ${error?.message ?? error}` } });
  }
});
server.listen(Number(portText), '127.0.0.1', () => {
  console.error(`compute listening on https://127.0.0.1:${portText}`);
  // Sign in before the first request, so no client waits for it.
  fetchServiceToken().then(
    (t) => (serviceToken ??= t),
    (error) => console.error(`service sign-in failed: ${error.message}`),
  );
});
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => process.exit(0));
