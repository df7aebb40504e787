/** Resolves and validates what `cloudgate oidc` needs; every problem is a UsageError naming its input. */
import { isDnsSubdomain } from '../kube/names.js';
import { trustStore } from '../net/trust.js';
import { resolve } from 'node:path';
import type { NetworkSettings } from '../config/network.js';
import type { SettingsSource } from '../config/settings.js';
import { UsageError, messageOf } from '../errors.js';
import { readRegularFileSync } from '../safe-read.js';
import type { OidcInputs, Thumbprint } from './artefacts.js';
import { assessKeySet, expectedJwksUri } from '../kube/service-account-issuer.js';
import { issuerUrlProblems } from '../config/formats.js';
import { discoverySettings, parseRoleArn } from '../config/discovery-settings.js';
import { normalizeThumbprint, probeTop } from './thumbprint.js';

type Input = SettingsSource & {
  inventoryPath: string;
  inventoryExplicit: boolean;
  names?: string;
  network: NetworkSettings;
};

/** What `cloudgate oidc` was told about the role beyond the settings chain (each else from the inventory's role ARN or a default). */
export interface OidcOptions {
  account?: string;
  partition?: string;
  roleName?: string;
  jwksFile?: string;
  thumbprint?: string;
}

export async function resolveOidcInputs(input: Input, options: OidcOptions, notes: string[]): Promise<OidcInputs> {
  const s = await discoverySettings(input);
  if (!s.issuerUrl) {
    throw new UsageError(
      'No issuer URL: cloudgate oidc needs the public HTTPS issuer URL of the cluster.',
      'Pass --issuer-url https://oidc.example.com/cluster1 (or set CLOUDGATE_ISSUER_URL, or discovery.issuer_url in --config).',
    );
  }
  const problems = issuerUrlProblems(s.issuerUrl);
  if (problems.length)
    throw new UsageError(
      `The issuer URL ${s.issuerUrl} is not usable: ${problems.join(' ')}`,
      'Give the public https:// issuer URL exactly as the API server will put it in tokens.',
    );
  if (new URL(s.issuerUrl).port)
    notes.push(
      `The issuer URL carries a port (${new URL(s.issuerUrl).port}); the DNS provider's identity service expects an issuer on the default https port.`,
    );

  const fromArn = s.roleArn ? parseRoleArn(s.roleArn) : undefined;
  if (s.roleArn && !fromArn)
    notes.push(
      `cluster_issuer_acme_route53_role_arn "${s.roleArn}" is not a role ARN (arn:aws:iam::<12 digits>:role/<name>); ignored.`,
    );
  const account = options.account ?? fromArn?.account;
  if (!account) {
    throw new UsageError(
      'No account id: the provider and role ARNs need it.',
      'Pass --account 123456789012, or set cluster_issuer_acme_route53_role_arn in the inventory (--inventory PATH).',
    );
  }
  if (!/^\d{12}$/.test(account)) throw new UsageError(`--account "${account}" is not a 12-digit account id.`);
  const partition = options.partition ?? fromArn?.partition ?? 'aws';
  if (!/^aws(-[a-z]+)*$/.test(partition))
    throw new UsageError(`--partition "${partition}" is not a partition such as aws, aws-cn or aws-us-gov.`);
  const roleName = options.roleName ?? fromArn?.roleName ?? 'cert-manager-route53-dns01';
  if (!/^[\w+=,.@-]{1,64}$/.test(roleName))
    throw new UsageError(
      `--role-name "${roleName}" is not a valid role name (letters, digits and +=,.@_- only, at most 64).`,
    );
  if (!isDnsSubdomain(s.serviceAccount)) {
    throw new UsageError(
      `The service account name "${s.serviceAccount}" is not a valid Kubernetes name.`,
      'Check cluster_issuer_acme_route53_service_account_name in the inventory.',
    );
  }

  return {
    issuerUrl: s.issuerUrl,
    account,
    partition,
    roleName,
    namespace: s.namespace,
    serviceAccount: s.serviceAccount,
    stsAudience: s.stsAudience,
    names: s.names,
    jwks: readJwksFile(options.jwksFile, input.cwd),
    thumbprint: await thumbprintFor(input, options.thumbprint, expectedJwksUri(s.issuerUrl), notes),
  };
}

function readJwksFile(path: string | undefined, cwd: string): unknown {
  if (!path) return undefined;
  const text = readRegularFileSync(resolve(cwd, path), { what: '--jwks-file' });
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new UsageError(
      `Cannot use --jwks-file ${path}: not valid JSON.`,
      'Save the key set with "kubectl get --raw /openid/v1/jwks > jwks.json".',
    );
  }
  const assessment = assessKeySet(doc);
  if (assessment.problems.length || assessment.signingKeys === 0) {
    throw new UsageError(
      `--jwks-file ${path} is not a usable key set: ${assessment.problems.join('; ') || 'no signing key'}.`,
      'Save the key set with "kubectl get --raw /openid/v1/jwks > jwks.json".',
    );
  }
  return doc;
}

async function thumbprintFor(
  input: Input,
  given: string | undefined,
  jwksUri: string,
  notes: string[],
): Promise<Thumbprint | undefined> {
  if (given !== undefined) {
    const value = normalizeThumbprint(given);
    if (!value)
      throw new UsageError(`--thumbprint "${given}" is not a SHA-1 thumbprint (40 hex characters, colons allowed).`);
    return { value, source: 'flag' };
  }
  try {
    const top = await probeTop(jwksUri, {
      trust: trustStore(input.network.caFile),
      insecure: input.network.insecure,
      timeoutMs: input.network.timeoutMs,
    });
    if (!top) return undefined;
    if (top.leafOnly)
      notes.push(
        `${top.host} serves only its own certificate (no intermediate); the thumbprint is the leaf's and changes at every renewal.`,
      );
    return { value: top.thumbprint, source: 'live', host: top.host, subject: top.cert.subject.replace(/\n/g, ', ') };
  } catch (error) {
    notes.push(`Could not read the certificate of ${new URL(jwksUri).host}: ${messageOf(error)}`);
    return undefined;
  }
}
