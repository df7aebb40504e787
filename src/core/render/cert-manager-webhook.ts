/**
 * cert-manager's validating webhook (`webhook.cert-manager.io`) for the issuers the platform's role
 * renders, as its source sets the rules (internal/apis/certmanager/validation/issuer.go and
 * util/nameserver.go), for the release the platform pins (v1.15.5) and the newest bundled (v1.21.1).
 * It runs after the API server's schema check (check.ts) on the object as stored: null fields already
 * dropped. Nothing is defaulted at admission: cert-manager's defaults (the rfc2136 port 53, HMACMD5,
 * the route53 zone looked up by name) apply when it solves a challenge, to the object as written.
 * Each error is Kubernetes' field error text, as the API server returns it.
 */
import { isRecord } from '../records.js';
import { validNameserver } from '../config/formats.js';

export { validNameserver } from '../config/formats.js';

export const WEBHOOK_VERSIONS = ['1.15.5', '1.21.1'] as const;
export type WebhookVersion = (typeof WEBHOOK_VERSIONS)[number];

export interface FieldError {
  /** `spec.acme.solvers[0].dns01.rfc2136.nameserver` */
  path: string;
  /** Kubernetes' field error text: `<path>: Required value: ...`. */
  text: string;
}

type Obj = Record<string, unknown>;
const rec = (v: unknown): Obj | undefined => (isRecord(v) ? v : undefined);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const quote = (v: string) => JSON.stringify(v);

const required = (path: string, detail = ''): FieldError => ({
  path,
  text: `${path}: Required value${detail ? `: ${detail}` : ''}`,
});
const invalid = (path: string, value: string, detail: string): FieldError => ({
  path,
  text: `${path}: Invalid value: ${quote(value)}: ${detail}`,
});
const forbidden = (path: string, detail: string): FieldError => ({ path, text: `${path}: Forbidden: ${detail}` });
const unsupported = (path: string, value: string, supported: readonly string[]): FieldError => ({
  path,
  text: `${path}: Unsupported value: ${quote(value)}: supported values: ${supported.map(quote).join(', ')}`,
});

/** The webhook's errors for a ClusterIssuer's (or Issuer's) spec. */
export function issuerErrors(spec: unknown, version: WebhookVersion): FieldError[] {
  const s = rec(spec) ?? {};
  const out: FieldError[] = [];
  let configs = 0;
  for (const type of ['acme', 'ca', 'selfSigned', 'vault', 'venafi'] as const) {
    if (s[type] === undefined) continue;
    if (configs > 0) {
      out.push(forbidden(`spec.${type}`, 'may not specify more than one issuer type'));
      continue;
    }
    configs++;
    if (type === 'acme') out.push(...acme(rec(s.acme) ?? {}, version));
    if (type === 'ca' && str(rec(s.ca)?.secretName) === '') out.push(required('spec.ca.secretName'));
    if (type === 'venafi') out.push(...venafi(rec(s.venafi) ?? {}, version));
  }
  if (configs === 0) out.push(required('spec', 'at least one issuer must be configured'));
  return out;
}

function acme(a: Obj, version: WebhookVersion): FieldError[] {
  const out: FieldError[] = [];
  if (str(rec(a.privateKeySecretRef)?.name) === '')
    out.push(required('spec.acme.privateKeySecretRef.name', 'private key secret name is a required field'));
  if (str(a.server) === '') out.push(required('spec.acme.server', 'acme server URL is a required field'));
  const solvers = Array.isArray(a.solvers) ? a.solvers : [];
  solvers.forEach((solver, i) => out.push(...solverErrors(rec(solver) ?? {}, `spec.acme.solvers[${i}]`, version)));
  return out;
}

function solverErrors(sol: Obj, path: string, version: WebhookVersion): FieldError[] {
  const out: FieldError[] = [];
  let n = 0;
  if (sol.http01 !== undefined) {
    n++;
    const ingress = rec(rec(sol.http01)?.ingress);
    if (ingress) {
      const given = [
        ingress.class !== undefined,
        ingress.ingressClassName !== undefined,
        str(ingress.name) !== '',
      ].filter(Boolean).length;
      // v1.15.5 refuses only all three together; v1.21.1 any two.
      if (version === '1.15.5' ? given === 3 : given > 1)
        out.push(
          forbidden(`${path}.http01.ingress`, "only one of 'ingressClassName', 'name' or 'class' should be specified"),
        );
    } else if (rec(sol.http01)?.gatewayHTTPRoute === undefined) {
      out.push(required(`${path}.http01`, 'no HTTP01 solver type configured'));
    }
  }
  if (sol.dns01 !== undefined) {
    if (n > 0) out.push(forbidden(path, 'may not specify more than one solver type in a single solver'));
    else {
      n++;
      out.push(...dns01(rec(sol.dns01) ?? {}, `${path}.dns01`, version));
    }
  }
  if (n === 0) out.push(required(path, 'no solver type configured'));
  return out;
}

export const TSIG_ALGORITHMS_ACCEPTED = ['HMACMD5', 'HMACSHA1', 'HMACSHA256', 'HMACSHA512'] as const;

function secretRef(ref: unknown, path: string): FieldError[] {
  const r = rec(ref) ?? {};
  return [
    ...(str(r.name) === '' ? [required(`${path}.name`, 'secret name is required')] : []),
    ...(str(r.key) === '' ? [required(`${path}.key`, 'secret key is required')] : []),
  ];
}

function dns01(p: Obj, path: string, version: WebhookVersion): FieldError[] {
  const out: FieldError[] = [];
  let n = 0;
  const one = (field: string, check: () => FieldError[]) => {
    if (p[field] === undefined) return;
    if (n > 0) out.push(forbidden(`${path}.${field}`, 'may not specify more than one provider type'));
    else {
      n++;
      out.push(...check());
    }
  };
  one('azureDNS', () => {
    const z = rec(p.azureDNS) ?? {};
    const e: FieldError[] = [];
    const at = `${path}.azureDNS`;
    if (str(z.clientID) !== '' || str(z.tenantID) !== '' || z.clientSecretSecretRef !== undefined) {
      if (str(z.clientID) === '') e.push(required(`${at}.clientID`));
      if (z.clientSecretSecretRef === undefined) e.push(required(`${at}.clientSecretSecretRef`));
      else e.push(...secretRef(z.clientSecretSecretRef, `${at}.clientSecretSecretRef`));
      if (str(z.tenantID) === '') e.push(required(`${at}.tenantID`));
    }
    if (str(z.subscriptionID) === '') e.push(required(`${at}.subscriptionID`));
    if (str(z.resourceGroupName) === '') e.push(required(`${at}.resourceGroupName`));
    const env = str(z.environment);
    if (!['', 'AzurePublicCloud', 'AzureChinaCloud', 'AzureGermanCloud', 'AzureUSGovernmentCloud'].includes(env)) {
      e.push(
        invalid(
          `${at}.environment`,
          env,
          `must be either empty or one of AzurePublicCloud, AzureChinaCloud, AzureGermanCloud${version === '1.15.5' ? '' : ','} or AzureUSGovernmentCloud`,
        ),
      );
    }
    return e;
  });
  one('cloudflare', () => {
    const c = rec(p.cloudflare) ?? {};
    const at = `${path}.cloudflare`;
    const e: FieldError[] = [];
    if (c.apiKeySecretRef !== undefined) e.push(...secretRef(c.apiKeySecretRef, `${at}.apiKeySecretRef`));
    if (c.apiTokenSecretRef !== undefined) e.push(...secretRef(c.apiTokenSecretRef, `${at}.apiTokenSecretRef`));
    if (c.apiKeySecretRef !== undefined && c.apiTokenSecretRef !== undefined)
      e.push(forbidden(at, 'apiKeySecretRef and apiTokenSecretRef cannot both be specified'));
    if (c.apiKeySecretRef === undefined && c.apiTokenSecretRef === undefined)
      e.push(required(at, 'apiKeySecretRef or apiTokenSecretRef is required'));
    if (str(c.email) === '' && c.apiKeySecretRef !== undefined) e.push(required(`${at}.email`));
    return e;
  });
  one('route53', () => {
    const r = rec(p.route53) ?? {};
    const at = `${path}.route53`;
    const e: FieldError[] = [];
    // v1.15.5 requires the region; v1.21.1 no longer does (it can come from the environment).
    if (version === '1.15.5' && str(r.region) === '') e.push(required(`${at}.region`));
    if (str(r.accessKeyID) !== '' && r.accessKeyIDSecretRef !== undefined)
      e.push(required(at, 'accessKeyID and accessKeyIDSecretRef cannot both be specified'));
    if (r.accessKeyIDSecretRef !== undefined)
      e.push(...secretRef(r.accessKeyIDSecretRef, `${at}.accessKeyIDSecretRef`));
    return e;
  });
  one('rfc2136', () => {
    const r = rec(p.rfc2136) ?? {};
    const at = `${path}.rfc2136`;
    const e: FieldError[] = [];
    const nameserver = str(r.nameserver);
    if (nameserver === '') e.push(required(`${at}.nameserver`));
    else if (validNameserver(nameserver) === undefined) {
      e.push(
        invalid(
          `${at}.nameserver`,
          nameserver,
          'nameserver must be set in the form host:port where host is an IPv4 address, an enclosed IPv6 address or a hostname and port is an optional port number.',
        ),
      );
    }
    const algorithm = str(r.tsigAlgorithm);
    if (algorithm !== '' && !TSIG_ALGORITHMS_ACCEPTED.some((a) => a === algorithm.toUpperCase())) {
      // cert-manager passes "" as the value shown, not the algorithm.
      e.push(unsupported(`${at}.tsigAlgorithm`, '', TSIG_ALGORITHMS_ACCEPTED));
    }
    if (str(r.tsigKeyName) !== '') e.push(...secretRef(r.tsigSecretSecretRef, `${at}.tsigSecretSecretRef`));
    if (secretRef(r.tsigSecretSecretRef, `${at}.tsigSecretSecretRef`).length === 0 && str(r.tsigKeyName) === '')
      e.push(required(`${at}.tsigKeyName`));
    return e;
  });
  one('webhook', () =>
    str(rec(p.webhook)?.solverName) === ''
      ? [required(`${path}.webhook.solverName`, 'solver name must be specified')]
      : [],
  );
  for (const other of ['akamai', 'cloudDNS', 'acmeDNS', 'digitalocean']) if (p[other] !== undefined) n++;
  if (n === 0) out.push(required(path, 'no DNS01 provider configured'));
  return out;
}

function venafi(v: Obj, version: WebhookVersion): FieldError[] {
  const out: FieldError[] = [];
  if (str(v.zone) === '') out.push(required('spec.venafi.zone'));
  const kinds = ['tpp', 'cloud', ...(version === '1.21.1' ? ['ngts'] : [])].filter((k) => v[k] !== undefined);
  const tpp = rec(v.tpp);
  if (tpp) {
    if (str(tpp.url) === '') out.push(required('spec.venafi.tpp.url'));
    if (version === '1.21.1' && str(tpp.caBundle) !== '' && tpp.caBundleSecretRef !== undefined) {
      out.push(
        forbidden('spec.venafi.tpp', 'may not specify more than one of caBundle/caBundleSecretRef as TPP CA Bundle'),
      );
    }
  }
  const names = version === '1.15.5' ? 'tpp, cloud' : 'tpp, cloud, ngts';
  if (kinds.length === 0) out.push(required('spec.venafi', `please supply one of: ${names}`));
  if (kinds.length > 1) out.push(forbidden('spec.venafi', `please supply one of: ${names}`));
  return out;
}
