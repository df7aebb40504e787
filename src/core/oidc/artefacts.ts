/**
 * What the kubernetes prerequisites ask the operator to create, built in memory from resolved
 * inputs (so nothing is written unless all of it could be built). Templates: templates/oidc/.
 */
import { respell } from '../config/neutral-names.js';
import { defaultName, type NamingProfile } from '../config/variables.js';
import {
  expectedJwksUri,
  IN_CLUSTER_AUDIENCE,
  IN_CLUSTER_ISSUER,
  issuerHostPath,
  keySetAlgorithms,
  assessKeySet,
} from '../kube/service-account-issuer.js';
import { MIN_CERT_MANAGER } from '../kube/platform.js';
import { renderJson, renderText } from './templates.js';
import { asRecord } from '../records.js';

export interface Thumbprint {
  /** 40 lower-case hex characters, no colons. */
  value: string;
  source: 'flag' | 'live';
  /** host:port it was read from (live). */
  host?: string;
  /** Subject of the certificate it belongs to (live). */
  subject?: string;
}

export interface OidcInputs {
  issuerUrl: string;
  account: string;
  partition: string;
  roleName: string;
  namespace: string;
  serviceAccount: string;
  stsAudience: string;
  thumbprint?: Thumbprint;
  /** The cluster's key set (`kubectl get --raw /openid/v1/jwks`), already validated. */
  jwks?: unknown;
  /** The variable names of the inventory, for the lines that name its variables. */
  names?: NamingProfile;
}

export interface OidcArtefacts {
  schema: 'cloudgate.oidc/v1';
  issuer: string;
  jwksUri: string;
  providerArn: string;
  roleArn: string;
  serviceAccount: { namespace: string; name: string; subject: string };
  /** The variable names of the inventory the artefacts were made from. */
  names: NamingProfile;
  stsAudience: string;
  thumbprint: Thumbprint | null;
  /** Relative path → content (an object for JSON files, a string otherwise), in a stable order. */
  files: Record<string, unknown>;
  notes: string[];
}

export const FILES = {
  discovery: 'discovery/.well-known/openid-configuration',
  jwks: 'discovery/openid/v1/jwks',
  flags: 'apiserver-flags.txt',
  provider: 'oidc-provider.json',
  trust: 'trust-policy.json',
  permissions: 'permissions-policy.json',
  rbac: 'discovery-rbac.yaml',
} as const;

export function buildOidcArtefacts(input: OidcInputs): OidcArtefacts {
  const issuer = input.issuerUrl;
  const hostPath = issuerHostPath(issuer);
  const jwksUri = expectedJwksUri(issuer);
  const providerArn = `arn:${input.partition}:iam::${input.account}:oidc-provider/${hostPath}`;
  const roleArn = `arn:${input.partition}:iam::${input.account}:role/${input.roleName}`;
  const subject = `system:serviceaccount:${input.namespace}:${input.serviceAccount}`;
  const values: Record<string, string> = {
    issuer_url: issuer,
    issuer_host_path: hostPath,
    jwks_uri: jwksUri,
    provider_arn: providerArn,
    subject,
    sts_audience: input.stsAudience,
    partition: input.partition,
    in_cluster_issuer: IN_CLUSTER_ISSUER,
    in_cluster_audience: IN_CLUSTER_AUDIENCE,
    thumbprint: input.thumbprint?.value ?? '',
  };
  const notes: string[] = [];
  const algorithms = input.jwks ? keySetAlgorithms(assessKeySet(input.jwks)) : ['RS256'];

  const files: Record<string, unknown> = {};
  files[FILES.discovery] = {
    issuer,
    jwks_uri: jwksUri,
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: algorithms,
  };
  if (input.jwks) files[FILES.jwks] = input.jwks;
  else {
    notes.push(
      `The key set (${FILES.jwks}) is not included: save the cluster's with "kubectl get --raw ${'/openid/v1/jwks'} > jwks.json" and pass --jwks-file jwks.json, ` +
        'or skip the static files when the API server itself serves the discovery endpoints (then apply discovery-rbac.yaml).',
    );
  }
  files[FILES.flags] = renderText('apiserver-flags.txt', values);
  const provider = asRecord(renderJson('oidc-provider.json', values)) ?? {}; // the template is a JSON object
  if (!input.thumbprint) {
    delete provider.ThumbprintList;
    notes.push(
      'No thumbprint: give --thumbprint HEX, or make the issuer host reachable so cloudgate reads it. ' +
        'For a publicly trusted certificate the DNS provider verifies the chain itself; for a private CA the thumbprint is required.',
    );
  }
  files[FILES.provider] = provider;
  files[FILES.trust] = renderJson('trust-policy.json', values);
  files[FILES.permissions] = renderJson('permissions-policy.json', values);
  files[FILES.rbac] = renderText('discovery-rbac.yaml', values);

  return {
    schema: 'cloudgate.oidc/v1',
    issuer,
    jwksUri,
    providerArn,
    roleArn,
    serviceAccount: { namespace: input.namespace, name: input.serviceAccount, subject },
    names: input.names ?? 'platform',
    stsAudience: input.stsAudience,
    thumbprint: input.thumbprint ?? null,
    files,
    notes,
  };
}

/** The bytes of one file: JSON pretty-printed with a final newline, text as is. */
export function fileText(content: unknown): string {
  return typeof content === 'string' ? content : JSON.stringify(content, null, 2) + '\n';
}

/** The human-readable walk through the steps, numbered from 1, for stdout. */
export function renderOidcText(a: OidcArtefacts): string {
  const block = (path: string) => fileText(a.files[path]).trimEnd().replace(/^/gm, '    ');
  const out: string[] = [];
  out.push(respell(`Keyless DNS credentials (route53 auth kubernetes) for issuer ${a.issuer}`, a.names));
  out.push('cert-manager proves who it is with a token of the cluster, so no DNS key is stored. Once per cluster:', '');
  out.push(
    `Step 1 — cert-manager ${MIN_CERT_MANAGER} or newer, with the service account ${a.serviceAccount.name} (check: cloudgate doctor --only kube).`,
    '',
  );
  out.push('Step 2 — publish the discovery documents at the issuer URL (https, no authentication):');
  out.push(`  ${a.issuer}/.well-known/openid-configuration:`, block(FILES.discovery));
  if (a.files[FILES.jwks]) out.push(`  ${a.jwksUri}:`, block(FILES.jwks));
  else out.push(`  ${a.jwksUri}: the cluster's key set (kubectl get --raw /openid/v1/jwks).`);
  out.push('  If the API server serves them itself, let anonymous users read them:', block(FILES.rbac), '');
  out.push('Step 3 — kube-apiserver flags on every control plane node:', block(FILES.flags), '');
  out.push(
    'Step 4 — register the OIDC provider (aws iam create-open-id-connect-provider --cli-input-json file://oidc-provider.json):',
  );
  out.push(block(FILES.provider));
  out.push(`  Provider: ${a.providerArn}`);
  if (a.thumbprint)
    out.push(
      `  Thumbprint ${a.thumbprint.value} (${a.thumbprint.source === 'flag' ? 'given' : `top certificate served by ${a.thumbprint.host}: ${a.thumbprint.subject}`})`,
    );
  out.push('');
  out.push(
    `Step 5 — role ${a.roleArn}, trust policy (subject ${a.serviceAccount.subject}, audience ${a.stsAudience}):`,
  );
  out.push(block(FILES.trust), '');
  out.push('Step 6 — permissions policy of the role:', block(FILES.permissions), '');
  out.push(
    respell(
      `Inventory: cluster_issuer_acme_route53_auth: kubernetes, cluster_issuer_acme_route53_role_arn: ${a.roleArn}`,
      a.names,
    ),
  );
  if (a.serviceAccount.name !== defaultName('cluster_issuer_acme_route53_service_account_name', a.names)) {
    out.push(respell(`           cluster_issuer_acme_route53_service_account_name: ${a.serviceAccount.name}`, a.names));
  }
  for (const note of a.notes) out.push('', `Note: ${note}`);
  return out.join('\n') + '\n';
}
