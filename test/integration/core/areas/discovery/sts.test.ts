import { afterEach, describe, expect, it } from 'vitest';
import { provideChecks } from '../../../../../src/core/areas/discovery/checks.js';
import { startAwsSts, type AwsSts, type AwsStsOptions, type Role } from '../../../../servers/aws-sts.js';
import { serviceAccountClaims, signJwt } from '../../../../servers/jwt.js';
import { KubeState, namespace, serviceAccount, startKubeApi } from '../../../../servers/kube-api.js';
import { startOidcIssuer, type OidcIssuer, type OidcIssuerOptions } from '../../../../servers/oidc-issuer.js';
import { doctorInput, run, writeTemp } from '../../../../helpers/doctor-run.js';
import { hasKubectl, needsKubectl } from '../../../../helpers/has-kubectl.js';

const ROLE_ARN = 'arn:aws:iam::123456789012:role/cert-manager-dns01';
const SUB = 'system:serviceaccount:cert-manager:cert-manager-route53';
const ZONE = { id: 'Z0123456789ABCDEFGHIJ', name: 'cloud.example.com.' };
const DNS_ACTIONS = [
  'route53:GetChange',
  'route53:ChangeResourceRecordSets',
  'route53:ListResourceRecordSets',
  'route53:ListHostedZonesByName',
];

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

async function issuer(options: OidcIssuerOptions = {}): Promise<OidcIssuer> {
  const i = await startOidcIssuer(options);
  stops.push(() => i.stop());
  return i;
}

/** The token service and DNS API, with the issuer registered and the role trusting the service account, unless overridden. */
async function aws(i: OidcIssuer, over: Partial<AwsStsOptions> & { role?: Partial<Role> } = {}): Promise<AwsSts> {
  const role: Role = {
    arn: ROLE_ARN,
    trust: { issuer: i.url, sub: SUB, aud: 'sts.amazonaws.com' },
    actions: DNS_ACTIONS,
    ...over.role,
  };
  const a = await startAwsSts({
    providers: over.providers ?? [{ issuer: i.url, clientIds: ['sts.amazonaws.com'], ca: i.ca.cert }],
    roles: over.roles ?? [role],
    zones: over.zones ?? [ZONE],
  });
  stops.push(() => a.stop());
  return a;
}

function inventory(extra: Record<string, string> = {}): string {
  const values: Record<string, string> = {
    cluster_issuer_acme_solver: 'route53',
    cluster_issuer_acme_route53_auth: 'kubernetes',
    cluster_issuer_acme_route53_region: 'eu-west-1',
    cluster_issuer_acme_route53_role_arn: ROLE_ARN,
    cluster_issuer_acme_route53_hosted_zone_id: ZONE.id,
    ...extra,
  };
  return writeTemp(
    'certificates.yml',
    Object.entries(values)
      .filter(([, v]) => v !== '')
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n') + '\n',
  );
}

function token(i: OidcIssuer, over: Record<string, unknown> = {}): string {
  const claims = serviceAccountClaims({
    issuer: i.url,
    audiences: ['sts.amazonaws.com'],
    namespace: 'cert-manager',
    serviceAccount: 'cert-manager-route53',
  });
  return signJwt({ ...claims, ...over }, i.keys[0]);
}

async function sts(a: AwsSts, tokenText: string, inv = inventory(), flags: Record<string, string> = {}) {
  const tokenFile = writeTemp('token', tokenText);
  const env = { CLOUDGATE_STS_ENDPOINT: a.url, CLOUDGATE_ROUTE53_ENDPOINT: a.url };
  const r = await run(
    provideChecks,
    doctorInput({ 'token-file': tokenFile, ...flags }, { env, inventory: inv, caFile: a.caFile }),
  );
  const all = JSON.stringify(r);
  for (const secret of [tokenText, ...a.secrets]) expect(all).not.toContain(secret);
  return r['discovery.sts'];
}

describe('discovery.sts: keyless role assumption, end to end', () => {
  it('assumes the role without signing, then reads the zone with signed temporary credentials', async () => {
    const i = await issuer();
    const a = await aws(i);
    const result = await sts(a, token(i));
    expect(result.status).toBe('ok');
    expect(result.message).toContain('cert-manager-dns01');
    expect(result.message).toContain(SUB);
    expect(result.message).toContain('route53:ListResourceRecordSets');
    const [assume, read] = a.requests;
    expect(assume.authorization).toBeUndefined();
    expect(assume.params).toMatchObject({
      Action: 'AssumeRoleWithWebIdentity',
      Version: '2011-06-15',
      RoleArn: ROLE_ARN,
      WebIdentityToken: '(token)',
    });
    expect(assume.params?.RoleSessionName).toMatch(/^cloudgate-[0-9a-f]+$/);
    expect(read.path).toBe(`/2013-04-01/hostedzone/${ZONE.id}/rrset?maxitems=1`);
    expect(read.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=ASIA/);
    expect(a.secrets.length).toBeGreaterThan(3);
  });

  it('looks the zone up by name when no zone id is set', async () => {
    const i = await issuer();
    const a = await aws(i);
    const result = await sts(
      a,
      token(i),
      inventory({
        cluster_issuer_acme_route53_hosted_zone_id: '',
        openstack_helm_ingress_wildcard_domain: 'cloud.example.com',
      }),
    );
    expect(result.status).toBe('ok');
    expect(result.message).toContain('route53:ListHostedZonesByName');
    expect(result.message).toContain(ZONE.name);
    expect(a.requests[1].path).toBe('/2013-04-01/hostedzonesbyname?maxitems=1&dnsname=cloud.example.com');
  });

  it('no OIDC provider for the issuer: names the issuer and how to register it', async () => {
    const i = await issuer();
    const a = await aws(i, { providers: [] });
    const result = await sts(a, token(i));
    expect(result.status).toBe('fail');
    expect(result.facts?.code).toBe('InvalidIdentityToken');
    expect(result.message).toContain(`No OpenIDConnect provider found in your account for ${i.url}`);
    expect(result.advice).toContain('create-open-id-connect-provider');
  });

  it('audience not among the provider client ids', async () => {
    const i = await issuer();
    const a = await aws(i, { providers: [{ issuer: i.url, clientIds: ['something-else'], ca: i.ca.cert }] });
    const result = await sts(a, token(i));
    expect(result.status).toBe('fail');
    expect(result.message).toContain('Incorrect token audience');
    expect(result.advice).toContain('add-client-id-to-open-id-connect-provider');
    expect(result.advice).toContain(`oidc-provider/${i.url.replace('https://', '')}`);
  });

  it('trust policy subject mismatch: shows the token sub and aud to compare', async () => {
    const i = await issuer();
    const a = await aws(i, {
      role: { trust: { issuer: i.url, sub: 'system:serviceaccount:cert-manager:other', aud: 'sts.amazonaws.com' } },
    });
    const result = await sts(a, token(i));
    expect(result.status).toBe('fail');
    expect(result.facts?.code).toBe('AccessDenied');
    expect(result.message).toContain(`sub "${SUB}"`);
    expect(result.message).toContain('aud [sts.amazonaws.com]');
    expect(result.advice).toContain(`:sub": "${SUB}"`);
  });

  it('an expired token', async () => {
    const i = await issuer();
    const a = await aws(i);
    const past = Math.floor(Date.now() / 1000) - 3600;
    const result = await sts(a, token(i, { iat: past - 600, nbf: past - 600, exp: past }));
    expect(result.status).toBe('fail');
    expect(result.facts?.code).toBe('ExpiredTokenException');
    expect(result.advice).toMatch(/fresh token/);
  });

  it('the token service cannot fetch the issuer key set', async () => {
    const i = await issuer({ status: 403 });
    const a = await aws(i);
    const result = await sts(a, token(i));
    expect(result.status).toBe('fail');
    expect(result.facts?.code).toBe('IDPCommunicationError');
    expect(result.advice).toContain('discovery.jwks');
  });

  it('role without DNS permission: names the actions the role needs', async () => {
    const i = await issuer();
    const a = await aws(i, { role: { actions: [] } });
    const result = await sts(a, token(i));
    expect(result.status).toBe('fail');
    expect(result.facts?.code).toBe('AccessDenied');
    expect(result.message).toContain('lacks DNS permissions');
    for (const action of DNS_ACTIONS) expect(result.advice).toContain(action);
  });

  it('a hosted zone id the DNS API does not know', async () => {
    const i = await issuer();
    const a = await aws(i, { zones: [] });
    const result = await sts(a, token(i));
    expect(result.status).toBe('fail');
    expect(result.facts?.code).toBe('NoSuchHostedZone');
    expect(result.message).toContain(ZONE.id);
    expect(result.advice).toContain('cluster_issuer_acme_route53_hosted_zone_id');
  });

  it('skips with the reason when the inventory is not route53 kubernetes, and fails without a role ARN', async () => {
    const i = await issuer();
    const a = await aws(i);
    const skipped = await sts(a, token(i), inventory({ cluster_issuer_acme_route53_auth: 'static' }));
    expect(skipped.status).toBe('skip');
    expect(skipped.message).toContain('auth static');
    expect(a.requests).toEqual([]);
    const noRole = await sts(a, token(i), inventory({ cluster_issuer_acme_route53_role_arn: '' }));
    expect(noRole.status).toBe('fail');
    expect(noRole.message).toContain('cluster_issuer_acme_route53_role_arn');
  });
});

describe.skipIf(!hasKubectl)(`discovery.sts mints the token as the certificate manager does${needsKubectl}`, () => {
  it('kubectl create token <sa> -n cert-manager --audience sts.amazonaws.com --duration 600s', async () => {
    const i = await issuer();
    const a = await aws(i);
    const state = new KubeState().add(
      namespace('cert-manager'),
      serviceAccount('cert-manager', 'cert-manager-route53'),
    );
    state.signingKey = i.keys[0];
    state.issuer = i.url;
    const api = await startKubeApi(state);
    stops.push(() => api.stop());
    {
      // The cluster is named only in the run's environment (KUBECONFIG), as `doctor` passes it on.
      const env = { ...process.env, ...api.env, CLOUDGATE_STS_ENDPOINT: a.url, CLOUDGATE_ROUTE53_ENDPOINT: a.url };
      const r = await run(provideChecks, doctorInput({}, { env, inventory: inventory(), caFile: a.caFile }));
      expect(r['discovery.sts'].status).toBe('ok');
      expect(r['discovery.sts'].message).toContain(
        'kubectl create token cert-manager-route53 -n cert-manager --audience sts.amazonaws.com --duration 600s',
      );
      const request = state.requests.find((q) => q.path.endsWith('/serviceaccounts/cert-manager-route53/token'));
      expect(request?.body).toMatchObject({ spec: { audiences: ['sts.amazonaws.com'], expirationSeconds: 600 } });
      const all = JSON.stringify(r);
      for (const secret of a.secrets) expect(all).not.toContain(secret);

      // A service account name kubectl would read as a flag is never passed to it.
      state.requests = [];
      const flagLike = await run(
        provideChecks,
        doctorInput(
          {},
          {
            env,
            inventory: inventory({ cluster_issuer_acme_route53_service_account_name: '--all' }),
            caFile: a.caFile,
          },
        ),
      );
      expect(flagLike['discovery.sts']).toMatchObject({ status: 'skip' });
      expect(flagLike['discovery.sts'].message).toContain('not a valid service account name');
      expect(state.requests.filter((q) => q.path.includes('/token'))).toEqual([]);
    }
  });
});
