import { afterEach, describe, expect, it } from 'vitest';
import { clearSecretsForTests } from '../../../../../src/core/secrets.js';
import {
  claimOfType,
  HEADER_LIMIT,
  judgeCommonClaims,
  judgeHeaderSize,
  judgeMapping,
  judgeRule,
  subjectAudience,
} from '../../../../../src/core/areas/signin/claims.js';
import { fakeJwt } from '../../../../servers/identity.js';

afterEach(() => clearSecretsForTests());

const DEFAULT = { value: 'OIDC_CLAIM_', explicit: false };
const DASH = { value: 'OIDC-', explicit: true };
const settings = { claimPrefix: DEFAULT, clientId: 'cloudgate', idpId: 'keycloak', protocol: 'openid' };

const token = {
  iss: 'https://kc.example/realms/cloud',
  sub: 'f1d2',
  preferred_username: 'alice',
  azp: 'cloudgate',
  aud: 'account',
  groups: ['/ops', '/dev'],
};
const user = { user: { name: '{0}' } };

describe('claimOfType: the claim a mapping remote type stands for', () => {
  it("reads mod_auth_openidc's environment and request-header forms", () => {
    expect(claimOfType('OIDC_CLAIM_preferred_username', DEFAULT)).toEqual({
      name: 'preferred_username',
      header: false,
    });
    expect(claimOfType('HTTP_OIDC_CLAIM_PREFERRED_USERNAME', DEFAULT)).toEqual({
      name: 'preferred_username',
      header: true,
    });
    // Without an explicit prefix, the OIDC- of Keystone's examples is understood too (HTTP_OIDC_* headers).
    expect(claimOfType('HTTP_OIDC_SUB', DEFAULT)).toEqual({ name: 'sub', header: true });
    expect(claimOfType('OIDC-email', DEFAULT)).toEqual({ name: 'email', header: false });
    expect(claimOfType('HTTP_OIDC_EMAIL', DASH)).toEqual({ name: 'email', header: true });
    expect(claimOfType('OIDC-email', DASH)).toEqual({ name: 'email', header: false });
    expect(claimOfType('REMOTE_USER', DEFAULT)).toBeUndefined();
    // An explicit prefix is the only one.
    expect(claimOfType('OIDC_CLAIM_sub', DASH)).toBeUndefined();
    expect(claimOfType('CLAIM_sub', { value: 'CLAIM_', explicit: true })).toEqual({ name: 'sub', header: false });
  });
});

describe('judgeRule: Keystone maps a rule only when every remote type is present and its conditions hold', () => {
  it('names the claims a rule lacks', () => {
    const v = judgeRule(
      { local: [user], remote: [{ type: 'HTTP_OIDC_SUB' }, { type: 'HTTP_OIDC_EMAIL' }] },
      0,
      token,
      DEFAULT,
    );
    expect(v).toMatchObject({
      rule: 1,
      matches: false,
      missing: [{ type: 'HTTP_OIDC_EMAIL', claim: 'email' }],
      uses: ['sub', 'email'],
    });
  });

  it('evaluates any_one_of and not_any_of (plain and regex) on present claims', () => {
    const judge = (remote: object[]) => judgeRule({ local: [user], remote }, 2, token, DEFAULT);
    expect(judge([{ type: 'OIDC_CLAIM_sub', not_any_of: ['orphan'] }]).matches).toBe(true);
    expect(judge([{ type: 'OIDC_CLAIM_sub', any_one_of: ['orphan'] }]).refused).toEqual([
      { type: 'OIDC_CLAIM_sub', claim: 'sub', condition: 'any_one_of' },
    ]);
    expect(judge([{ type: 'OIDC_CLAIM_groups', any_one_of: ['^/op'], regex: true }]).matches).toBe(true);
    expect(judge([{ type: 'OIDC_CLAIM_groups', not_any_of: ['/dev'] }]).refused[0]).toMatchObject({
      claim: 'groups',
      condition: 'not_any_of',
    });
    // whitelist/blacklist only filter values in Keystone: they never refuse a rule.
    expect(judge([{ type: 'OIDC_CLAIM_groups', whitelist: ['/none'] }]).matches).toBe(true);
    expect(judge([{ type: 'REMOTE_USER' }, { type: 'OIDC_CLAIM_sub' }])).toMatchObject({
      matches: true,
      unknown: ['REMOTE_USER'],
      rule: 3,
    });
  });

  it('counts an empty string or empty list as absent', () => {
    const v = judgeRule(
      { remote: [{ type: 'OIDC_CLAIM_email' }, { type: 'OIDC_CLAIM_roles' }] },
      0,
      { ...token, email: '', roles: [] },
      DEFAULT,
    );
    expect(v.missing.map((m) => m.claim)).toEqual(['email', 'roles']);
  });
});

describe('judgeMapping: token claims × mapping rules', () => {
  it('ok when one rule matches, though another (for other users) does not', () => {
    const mapping = {
      id: 'broker-mapping',
      rules: [
        { local: [user], remote: [{ type: 'HTTP_OIDC_SUB' }, { type: 'HTTP_OIDC_SUB', not_any_of: ['orphan-robot'] }] },
        { local: [user], remote: [{ type: 'HTTP_OIDC_SUB' }, { type: 'HTTP_OIDC_SUB', any_one_of: ['orphan-robot'] }] },
      ],
    };
    const f = judgeMapping(mapping, token, settings);
    expect(f.status).toBe('ok');
    expect(f.message).toContain('rule 1 of 2');
    expect((f.facts?.rules as { matches: boolean }[]).map((r) => r.matches)).toEqual([true, false]);
  });

  it('fail naming the missing claims when no rule can match ("Could not map any federated user properties")', () => {
    const mapping = {
      id: 'm1',
      rules: [
        { local: [user], remote: [{ type: 'OIDC_CLAIM_email' }] },
        {
          local: [user],
          remote: [{ type: 'OIDC_CLAIM_preferred_username' }, { type: 'OIDC_CLAIM_openstack_project' }],
        },
      ],
    };
    const f = judgeMapping(mapping, token, settings);
    expect(f.status).toBe('fail');
    expect(f.message).toContain('Could not map any federated user properties');
    expect(f.facts?.missing).toEqual(['email', 'openstack_project']);
    expect(f.message).toContain('rule 1: no email (OIDC_CLAIM_email)');
    expect(f.advice).toContain('"email", "openstack_project"');
    expect(f.advice).toContain('client "cloudgate"');
  });

  it('fail on values alone, with the any_one_of advice', () => {
    const f = judgeMapping(
      { id: 'm', rules: [{ remote: [{ type: 'OIDC_CLAIM_sub', any_one_of: ['bob'] }] }] },
      token,
      settings,
    );
    expect(f.status).toBe('fail');
    expect(f.facts?.missing).toEqual([]);
    expect(f.advice).toContain('any_one_of');
  });

  it('fail for a mapping without rules; warn when no type carries the prefix (claim_prefix advice)', () => {
    expect(judgeMapping({ id: 'empty', rules: [] }, token, settings).status).toBe('fail');
    const f = judgeMapping({ id: 'm', rules: [{ remote: [{ type: 'MELLON_NAME_ID' }] }] }, token, settings);
    expect(f.status).toBe('warn');
    expect(f.advice).toContain('claim_prefix');
    expect(f.message).toContain('MELLON_NAME_ID');
  });

  it('an explicit prefix changes what matches', () => {
    const mapping = { id: 'm', rules: [{ remote: [{ type: 'OIDC-preferred_username' }] }] };
    expect(judgeMapping(mapping, token, { ...settings, claimPrefix: DASH }).status).toBe('ok');
    expect(judgeMapping(mapping, token, { ...settings, claimPrefix: { value: 'X_', explicit: true } }).status).toBe(
      'warn',
    );
  });
});

describe('judgeCommonClaims: without the mapping', () => {
  it('ok with a note when sub and a user name are there; warn when sub or both names are missing', () => {
    const ok = judgeCommonClaims(token, 'no admin credentials');
    expect(ok.status).toBe('ok');
    expect(ok.message).toContain('the mapping was not read (no admin credentials)');
    expect(ok.facts).toMatchObject({ mapping_read: false, claims_absent: ['email'] });
    expect(judgeCommonClaims({ sub: 'x' }, 'n').status).toBe('warn');
    const noSub = judgeCommonClaims({ email: 'a@b' }, 'n');
    expect(noSub.status).toBe('warn');
    expect(noSub.message).toContain('sub, preferred_username');
  });
});

describe('judgeHeaderSize', () => {
  it('fails over 8 KiB with the size and the largest claims; silent below', () => {
    const small = fakeJwt(token);
    expect(judgeHeaderSize(small, token)).toBeUndefined();
    const claims = { ...token, groups: Array.from({ length: 400 }, (_, i) => `/tenant-group-${i}`) };
    const big = fakeJwt(claims);
    const f = judgeHeaderSize(big, claims)!;
    expect(f.status).toBe('fail');
    expect(f.facts?.authorization_bytes).toBe(Buffer.byteLength(`Bearer ${big}`));
    expect(f.facts?.authorization_bytes as number).toBeGreaterThan(HEADER_LIMIT);
    expect(f.message).toContain(`${f.facts?.authorization_bytes} bytes`);
    expect(f.message).toContain('400');
    expect((f.facts?.largest_claims as { name: string }[])[0]!.name).toBe('groups');
    expect(f.message).not.toContain(big);
  });
});

describe('subjectAudience: the standard exchange needs the client in aud', () => {
  const s = { clientId: 'cloudgate', brokerUrl: 'https://kc.example', realm: 'cloud' };
  it('names the client when it is missing from aud; internal when the realm issued the token', () => {
    const internal = subjectAudience(
      fakeJwt({ iss: 'https://kc.example/realms/cloud', aud: ['account'], azp: 'portal' }),
      s,
    )!;
    expect(internal).toMatchObject({ client: 'cloudgate', aud: ['account'], azp: 'portal', internal: true });
    expect(internal.message).toContain('"cloudgate"');
    expect(internal.advice).toContain('Audience mapper');
    expect(subjectAudience(fakeJwt({ iss: 'https://idp.example', aud: 'broker' }), s)?.internal).toBe(false);
  });
  it('nothing when the client is in aud, the token is opaque, or subject_issuer (legacy external exchange) is set', () => {
    expect(
      subjectAudience(fakeJwt({ iss: 'https://kc.example/realms/cloud', aud: ['account', 'cloudgate'] }), s),
    ).toBeUndefined();
    expect(subjectAudience('opaque-token-value', s)).toBeUndefined();
    expect(subjectAudience(fakeJwt({ iss: 'x', aud: 'broker' }), { ...s, subjectIssuer: 'external' })).toBeUndefined();
  });
});
