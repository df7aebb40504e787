/**
 * Read-only identity admin access for `signin.claims`: a password or application-credential sign-in
 * (as the OpenStack client does with OS_USERNAME/OS_PASSWORD or OS_APPLICATION_CREDENTIAL_*), then
 * the federation protocol's mapping. The admin token is registered as a secret the moment it arrives.
 */
import { escapeLine } from '../../escape.js';
import type { HttpResponse } from '../../net/http.js';
import { registerSecret } from '../../secrets.js';
import { describe, serverError, StepError } from './advice.js';
import type { AdminCredentials, SigninSettings } from './settings.js';
import type { StepEnv } from './step.js';
import { memberOf } from '../../records.js';
import { ADMIN } from './messages/steps.js';

export interface MappingRemote {
  type?: unknown;
  any_one_of?: unknown;
  not_any_of?: unknown;
  whitelist?: unknown;
  blacklist?: unknown;
  regex?: unknown;
}
export interface MappingRule {
  local?: unknown;
  remote?: MappingRemote[];
}
export interface Mapping {
  id: string;
  rules: MappingRule[];
}

/** Which admin credentials are given: none, complete ones, or a part that cannot sign in (named). */
export function adminCredentialState(
  a: AdminCredentials,
): { kind: 'none' } | { kind: 'password' | 'application-credential' } | { kind: 'incomplete'; lacking: string[] } {
  if (a.applicationCredentialId || a.applicationCredentialSecret) {
    const lacking = [
      !a.applicationCredentialId && 'OS_APPLICATION_CREDENTIAL_ID',
      !a.applicationCredentialSecret && 'OS_APPLICATION_CREDENTIAL_SECRET',
    ].filter((name) => typeof name === 'string');
    return lacking.length ? { kind: 'incomplete', lacking } : { kind: 'application-credential' };
  }
  if (a.username || a.password) {
    const lacking = [!a.username && 'OS_USERNAME', !a.password && 'OS_PASSWORD'].filter(
      (name) => typeof name === 'string',
    );
    return lacking.length ? { kind: 'incomplete', lacking } : { kind: 'password' };
  }
  return { kind: 'none' };
}

function authBody(a: AdminCredentials): Record<string, unknown> {
  if (a.applicationCredentialId) {
    // An application credential carries its own scope: Keystone refuses a scope next to it.
    return {
      auth: {
        identity: {
          methods: ['application_credential'],
          application_credential: { id: a.applicationCredentialId, secret: a.applicationCredentialSecret },
        },
      },
    };
  }
  const domain = (name: string | undefined) => (name ? { name } : { id: 'default' });
  const identity = {
    methods: ['password'],
    password: { user: { name: a.username, domain: domain(a.userDomainName), password: a.password } },
  };
  const scope = a.systemScope
    ? { system: { all: true } }
    : a.projectName
      ? { project: { name: a.projectName, domain: domain(a.projectDomainName) } }
      : undefined;
  return { auth: { identity, ...(scope ? { scope } : {}) } };
}

function who(a: AdminCredentials): string {
  if (a.applicationCredentialId) return `application credential ${a.applicationCredentialId}`;
  const scope = a.systemScope ? ', system scope' : a.projectName ? `, project ${a.projectName}` : ', unscoped';
  return `user ${a.username} (domain ${a.userDomainName ?? 'default'}${scope})`;
}

/** Signs in with the admin credentials; returns the token. */
export async function adminToken(env: StepEnv): Promise<string> {
  const s = env.settings;
  const url = `${s.identityUrl}/v3/auth/tokens`;
  const res = await env.http.request({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(authBody(s.admin)),
    credentials: true,
    signal: env.signal,
  });
  const token = res.headers['x-subject-token'];
  registerSecret(token);
  if (res.status === 201 && token) return token;
  const e = serverError(res);
  const advice =
    res.status === 401
      ? ADMIN.checkCredentials(who(s.admin), Boolean(s.admin.applicationCredentialId))
      : res.status === 201
        ? ADMIN.passSubjectTokenHeader
        : ADMIN.checkUrlAndCredentials;
  throw new StepError(ADMIN.signInFailed(escapeLine(who(s.admin)), url, describe(e)), advice, {
    url,
    status: res.status,
  });
}

function federationUrl(s: SigninSettings, path: string): string {
  return `${s.identityUrl}/v3/${s.federationPrefix}-FEDERATION/${path}`;
}

async function readJson(env: StepEnv, url: string, token: string, what: string): Promise<unknown> {
  const res: HttpResponse = await env.http.request({
    method: 'GET',
    url,
    headers: { 'x-auth-token': token },
    credentials: true,
    signal: env.signal,
  });
  if (res.status === 200) return res.json<unknown>();
  const e = serverError(res);
  const advice =
    res.status === 403 ? ADMIN.mayNotRead(what) : res.status === 404 ? ADMIN.checkFederationNames : ADMIN.readLog;
  throw new StepError(ADMIN.answered(url, describe(e)), advice, { url, status: res.status });
}

/** The federation protocol's mapping: the protocol names it (`mapping_id`), the mapping holds the rules. */
export async function readMapping(env: StepEnv, token: string): Promise<Mapping> {
  const s = env.settings;
  const protocolUrl = federationUrl(
    s,
    `identity_providers/${encodeURIComponent(s.idpId ?? '')}/protocols/${encodeURIComponent(s.protocol)}`,
  );
  const protocol = await readJson(env, protocolUrl, token, 'the federation protocol');
  const mappingId = memberOf(memberOf(protocol, 'protocol'), 'mapping_id');
  if (typeof mappingId !== 'string' || !mappingId) {
    throw new StepError(ADMIN.noMappingId(protocolUrl), ADMIN.checkKeystoneV3, { url: protocolUrl });
  }
  const mappingUrl = federationUrl(s, `mappings/${encodeURIComponent(mappingId)}`);
  const mapping = await readJson(env, mappingUrl, token, `mapping ${mappingId}`);
  const rules = memberOf(memberOf(mapping, 'mapping'), 'rules');
  return { id: mappingId, rules: Array.isArray(rules) ? (rules as MappingRule[]) : [] }; // checked rule by rule where they are read
}
