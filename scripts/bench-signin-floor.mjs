// The least any Node program can do for the signin bench: the same 5 HTTPS requests as the curl
// script, keep-alive, verified TLS, no framework. It shows the floor a Node CLI cannot go below here.
import { request, Agent } from 'node:https';
import { readFileSync } from 'node:fs';
const e = process.env;
const agent = new Agent({ keepAlive: true, ca: [readFileSync(e.OS_CACERT, 'utf8')] });
const send = (url, { method = 'GET', headers = {}, body } = {}) => new Promise((resolve, reject) => {
  const req = request(url, { method, headers: body ? { ...headers, 'content-length': Buffer.byteLength(body) } : headers, agent }, (res) => {
    let data = ''; res.setEncoding('utf8'); res.on('data', (d) => (data += d)); res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: data }));
  });
  req.on('error', reject); req.end(body);
});
const form = new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange', client_id: e.CLOUDGATE_CLIENT_ID, client_secret: e.CLOUDGATE_CLIENT_SECRET, subject_token: e.CLOUDGATE_SUBJECT_TOKEN, subject_token_type: 'urn:ietf:params:oauth:token-type:access_token' }).toString();
const auth = e.OS_AUTH_URL.replace(/\/$/, '');
const started = performance.now();
const broker = JSON.parse((await send(`${e.CLOUDGATE_BROKER_URL}/realms/${e.CLOUDGATE_REALM}/protocol/openid-connect/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form })).body).access_token;
const unscoped = (await send(`${auth}/OS-FEDERATION/identity_providers/${e.OS_IDENTITY_PROVIDER}/protocols/openid/auth`, { headers: { authorization: `Bearer ${broker}` } })).headers['x-subject-token'];
const projects = JSON.parse((await send(`${auth}/projects`, { headers: { 'x-auth-token': unscoped } })).body).projects;
const project = projects.find((p) => p.name === e.OS_PROJECT_NAME).id;
const scopedRes = await send(`${auth}/auth/projects`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-auth-token': unscoped }, body: JSON.stringify({ auth: { identity: { methods: ['token'], token: { id: unscoped } }, scope: { project: { id: project } } } }) });
const api = await send(`${e.COMPUTE_URL}/servers`, { headers: { 'x-auth-token': scopedRes.headers['x-subject-token'] } });
agent.destroy();
// requestsMs: the five requests themselves; the rest of the wall time is Node's start-up and exit.
process.stdout.write(JSON.stringify({ ok: api.status === 200, requestsMs: Math.round(performance.now() - started) }) + '\n');
process.exitCode = api.status === 200 ? 0 : 1;
