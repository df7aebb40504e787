#!/usr/bin/env node
// An external identity provider (client credentials) or a Keycloak-like broker (token exchange),
// both issuing RS256 JWT access tokens signed with node:crypto and publishing their key set.
//
//   node oidc-server.mjs idp    STATE_DIR PORT
//   node oidc-server.mjs broker STATE_DIR PORT IDP_PORT
//
// STATE_DIR holds tls.crt/tls.key (served over HTTPS), clients.json (client ids, secrets, subjects)
// and the signing key <role>-signing.pem, created once so a restart keeps the published key set.
// While STATE_DIR/hold-exchange exists the broker holds successful exchanges (and says so by creating
// hold-exchange.waiting): a test can then change the world between two steps of a client's chain.
// While STATE_DIR/broker-stray-key exists the broker signs its access tokens with another key under the
// published kid, as after a key rotation the resource server has not seen: mod_auth_openidc refuses them.
//
// The broker answers as Keycloak does (its texts, statuses and error codes):
//   client_credentials  a client's service account (`serviceAccounts: false` in clients.json: refused)
//   password            a user of clients.json's "broker-users" (`directAccess: false`: refused)
//   token exchange      an external token of the identity provider (legacy "V1", `subject_issuer` allowed),
//                       or one of the broker's own tokens (standard "V2": the exchanging client must be
//                       in its audience or its azp; `subject_issuer` refused); `exchange: false` refuses it
// A path it does not serve answers 404 as Keycloak 22+ ("Unable to find matching target resource method"),
// also under the /auth prefix that Keycloak before 17 used; a realm it does not know, "Realm does not exist".
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomUUID, sign, verify } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { join } from 'node:path';

const [role, stateDir, portText, idpPortText] = process.argv.slice(2);
if (!['idp', 'broker'].includes(role) || !stateDir || !portText) {
  console.error('usage: oidc-server.mjs idp|broker STATE_DIR PORT [IDP_PORT]');
  process.exit(2);
}
const port = Number(portText);
const REALM = 'cloud';
const IDP_ALIAS = 'external-idp';
const TOKEN_LIFETIME_S = 300;
const base = `https://127.0.0.1:${port}`;
const issuer = role === 'idp' ? `${base}/idp` : `${base}/realms/${REALM}`;
const registry = JSON.parse(readFileSync(join(stateDir, 'clients.json'), 'utf8'));
const clients = registry[role];
const users = role === 'broker' ? (registry['broker-users'] ?? {}) : {};

const keyFile = join(stateDir, `${role}-signing.pem`);
if (!existsSync(keyFile)) {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
}
const privateKey = createPrivateKey(readFileSync(keyFile));
const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
const kid = `${role}-${Buffer.from(jwk.n, 'base64url').subarray(0, 6).toString('hex')}`;
const jwks = { keys: [{ ...jwk, kid, use: 'sig', alg: 'RS256' }] };

const b64url = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');

const strayKeyFile = join(stateDir, 'broker-stray-key');
let strayKey;
function signingKey() {
  if (role !== 'broker' || !existsSync(strayKeyFile)) return privateKey;
  strayKey ??= generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  return strayKey;
}

function issueJwt(claims) {
  const now = Math.floor(Date.now() / 1000);
  const body = { iss: issuer, iat: now, exp: now + TOKEN_LIFETIME_S, jti: randomUUID(), typ: 'Bearer', ...claims };
  const input = `${b64url({ alg: 'RS256', typ: 'JWT', kid })}.${b64url(body)}`;
  return `${input}.${sign('sha256', Buffer.from(input), signingKey()).toString('base64url')}`;
}

/** Returns the claims of a JWT signed by one of `keys` and not expired, or undefined. */
function verifyJwt(token, keys) {
  const parts = String(token).split('.');
  if (parts.length !== 3) return undefined;
  try {
    const header = JSON.parse(Buffer.from(parts[0], 'base64url').toString());
    const key = keys.find((k) => k.kid === header.kid);
    if (!key || header.alg !== 'RS256') return undefined;
    const ok = verify(
      'sha256',
      Buffer.from(`${parts[0]}.${parts[1]}`),
      createPublicKey({ key, format: 'jwk' }),
      Buffer.from(parts[2], 'base64url'),
    );
    const claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString());
    return ok && claims.exp > Date.now() / 1000 ? claims : undefined;
  } catch {
    return undefined;
  }
}

/** Client id and secret from HTTP Basic or the form, as Keycloak accepts them. */
function clientOf(req, form) {
  const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? '');
  if (basic) {
    const [id, secret] = Buffer.from(basic[1], 'base64').toString().split(':');
    return { id: decodeURIComponent(id), secret: decodeURIComponent(secret ?? '') };
  }
  return { id: form.get('client_id'), secret: form.get('client_secret') };
}

function send(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}
const oauthError = (res, status, error, description) => send(res, status, { error, error_description: description });

let idpKeys;
async function idpKeySet() {
  idpKeys ??= (
    await (await fetch(`https://127.0.0.1:${idpPortText}/idp/jwks`, { signal: AbortSignal.timeout(5000) })).json()
  ).keys;
  return idpKeys;
}

const holdFile = join(stateDir, 'hold-exchange');
async function holdWhileFlagged() {
  if (!existsSync(holdFile)) return;
  writeFileSync(`${holdFile}.waiting`, String(process.pid));
  const until = Date.now() + 60_000;
  while (existsSync(holdFile) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 25));
  rmSync(`${holdFile}.waiting`, { force: true });
}

/** A service account's user id, stable per client (Keycloak gives it a UUID of its own). */
const serviceAccountId = (clientId) => {
  const hex = Buffer.from(`service-account:${clientId}`).toString('hex').padEnd(32, '0').slice(0, 32);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
};

const audienceOf = (claims) => (Array.isArray(claims.aud) ? claims.aud : claims.aud === undefined ? [] : [claims.aud]);

async function tokenEndpoint(req, res, form) {
  const client = clientOf(req, form);
  if (!client.id) return oauthError(res, 400, 'invalid_client', 'Missing client_id parameter');
  const known = clients[client.id];
  if (!known) return oauthError(res, 400, 'unauthorized_client', 'Invalid client credentials');
  if (known.secret !== client.secret) {
    return oauthError(res, 401, 'unauthorized_client', 'Invalid client or Invalid client credentials');
  }
  const grant = form.get('grant_type');
  const scope = form.get('scope') ?? 'openid';
  if (role === 'idp') {
    if (grant !== 'client_credentials') return oauthError(res, 400, 'unsupported_grant_type', 'Unsupported grant_type');
    const token = issueJwt({ sub: known.subject, azp: client.id, aud: 'broker', scope });
    return send(res, 200, { access_token: token, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_S, scope: 'openid' });
  }
  if (grant === 'client_credentials') {
    if (known.serviceAccounts === false)
      return oauthError(res, 401, 'unauthorized_client', 'Client not enabled to retrieve service account');
    const claims = {
      sub: serviceAccountId(client.id),
      preferred_username: `service-account-${client.id}`,
      azp: client.id,
      client_id: client.id,
      aud: 'account',
      scope,
    };
    return sendTokens(res, claims, client.id);
  }
  if (grant === 'password') {
    if (known.directAccess === false)
      return oauthError(res, 400, 'unauthorized_client', 'Client not allowed for direct access grants');
    const user = users[form.get('username') ?? ''];
    if (!user || user.password !== form.get('password'))
      return oauthError(res, 401, 'invalid_grant', 'Invalid user credentials');
    return sendTokens(
      res,
      { sub: user.subject, preferred_username: form.get('username'), azp: client.id, aud: 'account', scope },
      client.id,
    );
  }
  if (grant !== 'urn:ietf:params:oauth:grant-type:token-exchange') {
    return oauthError(res, 400, 'unsupported_grant_type', 'Unsupported grant_type');
  }
  if (known.exchange === false) return oauthError(res, 403, 'access_denied', 'Client not allowed to exchange');
  if (!form.get('subject_token')) return oauthError(res, 400, 'invalid_request', 'Missing parameter: subject_token');
  const tokenType = form.get('subject_token_type') ?? 'urn:ietf:params:oauth:token-type:access_token';
  if (
    tokenType !== 'urn:ietf:params:oauth:token-type:access_token' &&
    tokenType !== 'urn:ietf:params:oauth:token-type:jwt'
  ) {
    return oauthError(res, 400, 'invalid_request', 'Invalid token type, must be access token or jwt');
  }
  const subjectIssuer = form.get('subject_issuer');
  // One of the broker's own tokens: standard token exchange ("V2").
  const internal = verifyJwt(form.get('subject_token'), jwks.keys);
  if (internal) {
    if (subjectIssuer !== null) {
      return oauthError(
        res,
        400,
        'invalid_request',
        "Parameter 'subject_issuer' is not supported for standard token exchange",
      );
    }
    if (internal.azp !== client.id && !audienceOf(internal).includes(client.id)) {
      return oauthError(res, 403, 'access_denied', 'Client is not within the token audience');
    }
    await holdWhileFlagged();
    return sendTokens(
      res,
      {
        sub: internal.sub,
        preferred_username: internal.preferred_username ?? internal.sub,
        azp: client.id,
        aud: 'account',
      },
      client.id,
    );
  }
  if (subjectIssuer !== null && subjectIssuer !== IDP_ALIAS) {
    return oauthError(res, 400, 'invalid_issuer', 'Invalid subject_issuer parameter');
  }
  const subject = verifyJwt(form.get('subject_token'), await idpKeySet());
  if (!subject) return oauthError(res, 400, 'invalid_token', 'invalid token');
  await holdWhileFlagged();
  return sendTokens(
    res,
    { sub: subject.sub, preferred_username: subject.sub, azp: client.id, aud: 'account', identity_provider: IDP_ALIAS },
    client.id,
    { issued_token_type: 'urn:ietf:params:oauth:token-type:access_token' },
  );
}

/** A Keycloak token answer: access and refresh token, and an ID token when a grant asked for scope openid. */
function sendTokens(res, claims, clientId, extra = {}) {
  const openid = /\bopenid\b/.test(claims.scope ?? '') && !extra.issued_token_type;
  const idToken = openid
    ? {
        id_token: issueJwt({
          sub: claims.sub,
          typ: 'ID',
          aud: clientId,
          azp: clientId,
          preferred_username: claims.preferred_username,
        }),
      }
    : {};
  return send(res, 200, {
    access_token: issueJwt(claims),
    expires_in: TOKEN_LIFETIME_S,
    refresh_expires_in: 1800,
    refresh_token: issueJwt({ sub: claims.sub, typ: 'Refresh', azp: clientId }),
    token_type: 'Bearer',
    ...idToken,
    'not-before-policy': 0,
    session_state: randomUUID(),
    scope: 'openid',
    ...extra,
  });
}

const prefix = role === 'idp' ? '/idp' : `/realms/${REALM}`;
const tokenPath = role === 'idp' ? '/idp/token' : `${prefix}/protocol/openid-connect/token`;
const jwksPath = role === 'idp' ? '/idp/jwks' : `${prefix}/protocol/openid-connect/certs`;

const tls = { cert: readFileSync(join(stateDir, 'tls.crt')), key: readFileSync(join(stateDir, 'tls.key')) };
const server = createServer(tls, (req, res) => {
  const path = new URL(req.url ?? '/', base).pathname;
  if (req.method === 'GET' && path === `${prefix}/.well-known/openid-configuration`) {
    return send(res, 200, {
      issuer,
      token_endpoint: `${base}${tokenPath}`,
      jwks_uri: `${base}${jwksPath}`,
      grant_types_supported:
        role === 'idp'
          ? ['client_credentials']
          : ['urn:ietf:params:oauth:grant-type:token-exchange', 'client_credentials', 'password'],
      id_token_signing_alg_values_supported: ['RS256'],
    });
  }
  if (req.method === 'GET' && path === jwksPath) return send(res, 200, jwks);
  if (path === tokenPath && req.method === 'POST') {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      tokenEndpoint(req, res, new URLSearchParams(raw)).catch((error) =>
        oauthError(res, 500, 'server_error', String(error?.message ?? error)),
      );
    });
    return;
  }
  if (role === 'broker' && path.startsWith('/realms/') && !path.startsWith(`${prefix}/`)) {
    return send(res, 404, { error: 'Realm does not exist' });
  }
  if (role === 'broker') {
    return oauthError(
      res,
      404,
      'Unable to find matching target resource method',
      'For more on this error consult the server log at the debug level.',
    );
  }
  send(res, 404, { error: 'not found' });
});
server.listen(port, '127.0.0.1', () => console.error(`${role} listening on ${base} (issuer ${issuer})`));
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => process.exit(0));
