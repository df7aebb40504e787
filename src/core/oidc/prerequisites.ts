/**
 * The once-per-cluster prerequisites of route53 auth `kubernetes` (six steps) as a
 * checklist the setup walkthrough renders, filled from the answers/inventory values.
 */
import { CERT_MANAGER_NAMESPACE, MIN_CERT_MANAGER } from '../kube/platform.js';
import { DEFAULT_STS_AUDIENCE, parseRoleArn } from '../config/discovery-settings.js';
import { respell } from '../config/neutral-names.js';
import { defaultName, type NamingProfile } from '../config/variables.js';

export interface Prerequisite {
  title: string;
  detail: string;
  /** A command that does or checks this step. */
  command?: string;
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** The doctor run that checks the published issuer (offer it after the checklist). */
export function discoveryDoctorCommand(issuerUrl?: string): string {
  return `cloudgate doctor --only discovery,kube --issuer-url ${issuerUrl ?? '<ISSUER_URL>'}`;
}

/** `names`: the words the deployment reads (the default service account and, with spec, the variable names follow them). */
export function keylessPrerequisites(
  values: Record<string, unknown>,
  options: { issuerUrl?: string; names?: NamingProfile } = {},
): Prerequisite[] {
  const names = options.names ?? 'platform';
  const steps = prerequisiteSteps(values, options.issuerUrl ?? '<ISSUER_URL>', names);
  return names === 'platform'
    ? steps
    : steps.map((s) => ({ ...s, title: respell(s.title, names), detail: respell(s.detail, names) }));
}

function prerequisiteSteps(values: Record<string, unknown>, issuer: string, names: NamingProfile): Prerequisite[] {
  const serviceAccount =
    text(values.cluster_issuer_acme_route53_service_account_name) ??
    defaultName('cluster_issuer_acme_route53_service_account_name', names)!;
  const subject = `system:serviceaccount:${CERT_MANAGER_NAMESPACE}:${serviceAccount}`;
  const roleArn = text(values.cluster_issuer_acme_route53_role_arn);
  const role = roleArn ? parseRoleArn(roleArn) : undefined;
  const roleName = role?.roleName ?? '<ROLE_NAME>';
  const oidcArgs = role
    ? `--issuer-url ${issuer} --role-name ${role.roleName} --account ${role.account}`
    : `--issuer-url ${issuer} --account <ACCOUNT_ID>`;
  return [
    {
      title: `cert-manager ${MIN_CERT_MANAGER} or newer`,
      detail: `Its CRDs must be ${MIN_CERT_MANAGER}+ (older ones lack serviceAccountRef). The platform creates service account ${serviceAccount} in ${CERT_MANAGER_NAMESPACE} and lets the controller request tokens for it.`,
      command: 'cloudgate doctor --only kube',
    },
    {
      title: 'Publish the OIDC discovery documents',
      detail: `${issuer}/.well-known/openid-configuration and ${issuer}/openid/v1/jwks over public HTTPS, readable without authentication; issuer = the URL, jwks_uri = the URL + /openid/v1/jwks.`,
      command: `kubectl get --raw /openid/v1/jwks > jwks.json && cloudgate oidc ${oidcArgs} --jwks-file jwks.json --out oidc/`,
    },
    {
      title: 'Configure the API server on every control plane node',
      detail: `--service-account-issuer=${issuer}, --service-account-jwks-uri=${issuer}/openid/v1/jwks, --api-audiences with the in-cluster audience, ${issuer} and ${DEFAULT_STS_AUDIENCE} (see oidc/apiserver-flags.txt).`,
    },
    {
      title: 'Register the issuer as an OIDC provider',
      detail: `Client id ${DEFAULT_STS_AUDIENCE} and the thumbprint of the issuer's TLS certificate (oidc/oidc-provider.json).`,
      command: 'aws iam create-open-id-connect-provider --cli-input-json file://oidc/oidc-provider.json',
    },
    {
      title: 'Create the role and its trust policy',
      detail: `Web-identity role assumption by that provider, only for subject ${subject} and audience ${DEFAULT_STS_AUDIENCE}; put its ARN in cluster_issuer_acme_route53_role_arn.`,
      command: `aws iam create-role --role-name ${roleName} --assume-role-policy-document file://oidc/trust-policy.json`,
    },
    {
      title: 'Give the role its DNS permissions',
      detail: 'Look up a change status, change record sets, list hosted zones by name, on all resources.',
      command: `aws iam put-role-policy --role-name ${roleName} --policy-name cert-manager-dns01 --policy-document file://oidc/permissions-policy.json`,
    },
  ];
}
