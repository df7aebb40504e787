/** Rows of the variables table: the ACME issuer. */
import { ROW, SOLVERS, DEFAULT_SOLVER, enumOf, type Variable } from '../variable-types.js';

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
    // The platform's OpenStack client and SDK configs read it whenever the issuer is neither self-signed,
    // ca nor venafi: with a supplied wildcard (none) too, they then trust the hosts' CA store.
    name: 'cluster_issuer_acme_private_ca', type: 'bool', default: false, required: false, secret: false,
    appliesWhen: { issuer: ['acme', 'none'] }, section: 'ACME issuer',
    help: 'true when the ACME server (or a supplied certificate) is signed by a custom CA in the hosts\' trust store, so that the platform\'s clients trust it',
  },
  {
    name: 'cluster_issuer_acme_solver', ...enumOf(SOLVERS), default: DEFAULT_SOLVER,
    required: false, secret: false, appliesWhen: ROW.acme, section: 'ACME issuer',
    help: 'Challenge type: HTTP-01, or the DNS provider for DNS-01',
  },
  {
    name: 'cluster_issuer_acme_private_key_secret_name', type: 'string', default: 'cert-manager-issuer-account-key',
    required: false, secret: false, asked: false, appliesWhen: ROW.acme, section: 'ACME issuer',
    help: 'Secret holding the ACME account key (acme.privateKeySecretRef.name); cert-manager creates it',
  },
  {
    name: 'cluster_issuer_acme_http01_ingress_class', type: 'string', defaultFrom: 'atmosphere_ingress_class_name',
    required: false, secret: false, asked: false, appliesWhen: ROW.solver('http01'), section: 'ACME issuer',
    help: 'Ingress class of the HTTP-01 challenge ingresses (solvers[].http01.ingress.class)',
  },
];
