#!/usr/bin/env node
// Registers, through Keystone's own API as the bootstrap admin, everything the sign-in chain needs:
// four projects (the federated group has a role on alpha, beta and rig-alpha, none on gamma), the compute service in the catalog, and
// OS-FEDERATION: identity provider "broker" (remote id = the broker's issuer), a mapping, protocol
// "openid". Idempotent: existing objects are reused. Prints the ids as JSON on stdout.
//
//   node register.mjs STATE_DIR KEYSTONE_URL BROKER_ISSUER COMPUTE_URL
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const [stateDir, keystoneUrl, brokerIssuer, computeUrl] = process.argv.slice(2);
const password = readFileSync(join(stateDir, 'admin-password'), 'utf8').trim();
const ORPHAN_SUBJECT = 'orphan-robot';

async function call(method, path, body, token, expected = [200, 201, 204]) {
  const res = await fetch(`${keystoneUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { 'x-auth-token': token } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(20_000),
  });
  const text = await res.text();
  if (!expected.includes(res.status))
    throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : {} };
}

const signIn = await call('POST', '/v3/auth/tokens', {
  auth: {
    identity: { methods: ['password'], password: { user: { name: 'admin', domain: { id: 'default' }, password } } },
    scope: { project: { name: 'admin', domain: { id: 'default' } } },
  },
});
const token = signIn.headers.get('x-subject-token');

/** Finds a named object in a collection or creates it. */
async function ensure(collection, key, name, body) {
  const found = (await call('GET', `/v3/${collection}?name=${encodeURIComponent(name)}`, undefined, token)).json[
    collection
  ];
  if (found.length > 0) return found[0].id;
  return (await call('POST', `/v3/${collection}`, { [key]: body }, token)).json[key].id;
}

const projects = {};
for (const name of ['alpha', 'beta', 'gamma']) {
  projects[name] = await ensure('projects', 'project', name, {
    name,
    domain_id: 'default',
    description: `cloudgate e2e project ${name}`,
  });
}
// Domain "rig" holds rig-alpha: a project the federated users may use outside the default domain, named by
// project_name + project_domain_name as the OpenStack client names it.
const rigDomain = await ensure('domains', 'domain', 'rig', { name: 'rig', description: 'cloudgate e2e domain' });
projects['rig-alpha'] = await ensure('projects', 'project', 'rig-alpha', {
  name: 'rig-alpha',
  domain_id: rigDomain,
  description: 'cloudgate e2e project in domain rig',
});
const members = await ensure('groups', 'group', 'federated-users', { name: 'federated-users', domain_id: 'default' });
const orphans = await ensure('groups', 'group', 'no-projects', { name: 'no-projects', domain_id: 'default' });
const roleId = (await call('GET', '/v3/roles?name=member', undefined, token)).json.roles[0].id;
for (const name of ['alpha', 'beta', 'rig-alpha']) {
  await call('PUT', `/v3/projects/${projects[name]}/groups/${members}/roles/${roleId}`, undefined, token);
}

const services = (await call('GET', '/v3/services?type=compute', undefined, token)).json.services;
const serviceId =
  services[0]?.id ??
  (
    await call(
      'POST',
      '/v3/services',
      { service: { type: 'compute', name: 'nova', description: 'cloudgate e2e compute' } },
      token,
    )
  ).json.service.id;
const endpoints = (await call('GET', `/v3/endpoints?service_id=${serviceId}`, undefined, token)).json.endpoints;
for (const iface of ['public', 'internal']) {
  if (!endpoints.some((e) => e.interface === iface)) {
    await call(
      'POST',
      '/v3/endpoints',
      { endpoint: { service_id: serviceId, interface: iface, url: computeUrl, region_id: 'RegionOne' } },
      token,
    );
  }
}

/**
 * PUT creates a federation object; 409 means it exists, so PATCH brings it up to date (without the
 * fields Keystone sets only at creation: an identity provider's domain_id).
 */
async function upsert(path, key, body, createOnly = []) {
  const created = await call('PUT', path, { [key]: body }, token, [201, 409]);
  if (created.status === 409) {
    const update = Object.fromEntries(Object.entries(body).filter(([field]) => !createOnly.includes(field)));
    await call('PATCH', path, { [key]: update }, token);
  }
}

await upsert(
  '/v3/OS-FEDERATION/identity_providers/broker',
  'identity_provider',
  {
    remote_ids: [brokerIssuer],
    enabled: true,
    description: 'cloudgate e2e broker',
    domain_id: 'default',
  },
  ['domain_id'],
);
const user = { user: { name: '{0}', type: 'ephemeral' } };
await upsert('/v3/OS-FEDERATION/mappings/broker-mapping', 'mapping', {
  rules: [
    {
      local: [user, { group: { id: members } }],
      remote: [{ type: 'HTTP_OIDC_SUB' }, { type: 'HTTP_OIDC_SUB', not_any_of: [ORPHAN_SUBJECT] }],
    },
    {
      local: [user, { group: { id: orphans } }],
      remote: [{ type: 'HTTP_OIDC_SUB' }, { type: 'HTTP_OIDC_SUB', any_one_of: [ORPHAN_SUBJECT] }],
    },
  ],
});
await upsert('/v3/OS-FEDERATION/identity_providers/broker/protocols/openid', 'protocol', {
  mapping_id: 'broker-mapping',
});

process.stdout.write(
  `${JSON.stringify({ projects, domains: { default: 'default', rig: rigDomain }, computeServiceId: serviceId }, null, 2)}\n`,
);
