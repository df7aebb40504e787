// Walks the sign-in chain by hand against the running environment (no cloudgate code), so the
// e2e test and the bench can compare cloudgate with what the real services answer.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { join } from 'node:path';

export function loadEnv(stateDir) {
  return JSON.parse(readFileSync(join(stateDir, 'env.json'), 'utf8'));
}

/** A minimal HTTPS call trusting only the environment's CA; resolves {status, headers, body}. */
export function call(env, method, url, { headers = {}, body } = {}) {
  const agent = new Agent({ ca: readFileSync(env.caFile) });
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent, timeout: 15_000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => {
        let json;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode, headers: res.headers, text, json });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`timeout: ${method} ${url}`)));
    req.on('error', reject);
    req.end(body);
  });
}

const form = (fields) => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

export async function idpToken(env, clientId = env.idpClientId) {
  const res = await call(
    env,
    'POST',
    env.idpTokenUrl,
    form({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: env.idpClients[clientId].secret,
    }),
  );
  if (res.status !== 200) throw new Error(`idp answered ${res.status}: ${res.text}`);
  return res.json.access_token;
}

export async function brokerToken(env, subjectToken) {
  const res = await call(
    env,
    'POST',
    `${env.brokerUrl}/realms/${env.realm}/protocol/openid-connect/token`,
    form({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      client_id: env.clientId,
      client_secret: env.clientSecret,
      subject_token: subjectToken,
      subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
    }),
  );
  if (res.status !== 200) throw new Error(`broker answered ${res.status}: ${res.text}`);
  return res.json.access_token;
}

export async function unscopedToken(env, bearer, idp = env.idpId) {
  const res = await call(
    env,
    'GET',
    `${env.identityUrl}/v3/OS-FEDERATION/identity_providers/${idp}/protocols/${env.protocol}/auth`,
    { headers: { authorization: `Bearer ${bearer}` } },
  );
  if (res.status !== 201) throw new Error(`keystone answered ${res.status}: ${res.text}`);
  return res.headers['x-subject-token'];
}

export const scopeBody = (token, projectId) =>
  JSON.stringify({
    auth: { identity: { methods: ['token'], token: { id: token } }, scope: { project: { id: projectId } } },
  });

/** A project-scoped token of the bootstrap admin, for changing Keystone's federation settings. */
export async function adminToken(env) {
  const password = readFileSync(env.adminPasswordFile, 'utf8').trim();
  const res = await call(env, 'POST', `${env.identityUrl}/v3/auth/tokens`, {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      auth: {
        identity: { methods: ['password'], password: { user: { name: 'admin', domain: { id: 'default' }, password } } },
        scope: { project: { name: 'admin', domain: { id: 'default' } } },
      },
    }),
  });
  if (res.status !== 201) throw new Error(`keystone admin sign-in answered ${res.status}: ${res.text}`);
  return res.headers['x-subject-token'];
}
