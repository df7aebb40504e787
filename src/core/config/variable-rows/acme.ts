/** Rows of the variables table: the ACME issuer. */
import { ROW, SOLVERS, DEFAULT_SOLVER, type Variable } from '../variable-types.js';

export const ACME_ROWS: Variable[] = [
  // ACME issuer
  {
    name: 'cluster_issuer_acme_email', type: 'email', required: true, secret: false, appliesWhen: ROW.acme,
    section: 'ACME issuer', example: 'certificates@example.com',
    help: 'Contact email of the ACME account (needed whatever the challenge type)',
  },
  {
    name: 'cluster_issuer_acme_server', type: 'url', required: false, secret: false, appliesWhen: ROW.acme,
    roleDefault: 'https://acme-v02.api.letsencrypt.org/directory',
    section: 'ACME issuer', example: 'https://acme.internal.example.com/directory',
    help: 'Directory URL of an internal ACME server (unset: a public ACME certificate authority)',
  },
  {
    name: 'cluster_issuer_acme_private_ca', type: 'bool', default: false, required: false, secret: false,
    appliesWhen: ROW.acme, section: 'ACME issuer',
    help: 'true when the ACME server uses a certificate signed by a custom CA, so that it is trusted',
  },
  {
    name: 'cluster_issuer_acme_solver', type: 'enum', values: SOLVERS, default: DEFAULT_SOLVER,
    required: false, secret: false, appliesWhen: ROW.acme, section: 'ACME issuer',
    help: 'Challenge type: HTTP-01, or the DNS provider for DNS-01',
    valueHelp: {
      http01: 'HTTP-01 (default): works when the ACME server can reach the API endpoints; needs only the email',
      clouddnsa: 'DNS-01 via clouddnsa (Azure DNS): use when the ACME server cannot reach the APIs',
      rfc2136: 'DNS-01 via a DNS server supporting RFC 2136 dynamic updates (TSIG key)',
      clouddnsb: 'DNS-01 via clouddnsb (Route 53): static keys, ambient credentials or keyless cluster OIDC',
      dnsc: 'DNS-01 via dnsc (Cloudflare) with an API token',
      dnsd: 'DNS-01 via dnsd (GoDaddy): needs a separate webhook and an account with 10+ domains',
      dnse: 'DNS-01 via dnse (Infoblox): needs a separate webhook component',
    },
  },
  {
    name: 'cluster_issuer_acme_private_key_secret_name', type: 'string',
    default: 'certmgr-issuer-account-key', platformDefault: 'cert-manager-issuer-account-key',
    required: false, secret: false, asked: false, appliesWhen: ROW.acme, section: 'ACME issuer',
    help: 'Secret holding the ACME account key (acme.privateKeySecretRef.name); cert-manager creates it',
  },
  {
    name: 'cluster_issuer_acme_http01_ingress_class', type: 'string', defaultFrom: 'platform_ingress_class_name',
    required: false, secret: false, asked: false, appliesWhen: ROW.solver('http01'), section: 'ACME issuer',
    help: 'Ingress class of the HTTP-01 challenge ingresses (solvers[].http01.ingress.class)',
  },
];
