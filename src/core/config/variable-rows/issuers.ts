/** Rows of the variables table: the Venafi, CA and self-signed issuers. */
import type { Variable } from '../variable-types.js';

export const ISSUER_ROWS: Variable[] = [
  // Venafi issuer
  {
    name: 'cluster_issuer_venafi_ca',
    type: 'pem-certificate', required: true, secret: false,
    appliesWhen: { issuer: ['venafi'] }, section: 'Venafi issuer',
    help: 'Issuing CA certificate; for an intermediate, the full chain: issuer, intermediate(s), root',
  },
  {
    name: 'cluster_issuer_venafi_zone',
    type: 'string', required: true, secret: false,
    appliesWhen: { issuer: ['venafi'] }, section: 'Venafi issuer', help: 'Policy zone',
    example: 'Certificates\\Cloud',
  },
  {
    name: 'cluster_issuer_venafi_tpp_url',
    type: 'url', required: true, secret: false,
    appliesWhen: { issuer: ['venafi'] }, section: 'Venafi issuer', help: 'URL of the Venafi TPP server (its WebSDK, e.g. https://tpp.example.com/vedsdk)',
    example: 'https://tpp.example.com/vedsdk',
  },
  {
    name: 'cluster_issuer_venafi_tpp_ca_bundle',
    type: 'pem-certificate',
    required: false, platformNeeds: true, secret: false, appliesWhen: { issuer: ['venafi'] }, section: 'Venafi issuer',
    help: 'CA bundle that signed the TPP server\'s certificate, base64-encoded (needed by the platform, no default)',
  },
  {
    name: 'cluster_issuer_venafi_access_token',
    type: 'string', required: false, secret: true,
    recommended: true, appliesWhen: { issuer: ['venafi'] }, section: 'Venafi issuer',
    help: 'Access token (recommended; use it instead of username and password)',
  },
  {
    name: 'cluster_issuer_venafi_username',
    type: 'string', required: false, secret: false, legacy: true,
    appliesWhen: { issuer: ['venafi'] }, section: 'Venafi issuer',
    help: 'User name, with password: legacy authentication being phased out',
  },
  {
    name: 'cluster_issuer_venafi_password',
    type: 'string', required: false, secret: true, legacy: true,
    appliesWhen: { issuer: ['venafi'] }, section: 'Venafi issuer',
    help: 'Password, with user name: legacy authentication being phased out',
  },
  {
    name: 'cluster_issuer_venafi_secret_name',
    type: 'string', default: 'cert-manager-venafi-credentials',
    required: false, secret: false, asked: false, appliesWhen: { issuer: ['venafi'] }, section: 'Venafi issuer',
    help: 'Secret holding the access token or username and password (tpp.credentialsRef.name)',
  },
  // Pre-existing CA issuer
  {
    name: 'cluster_issuer_ca_certificate', type: 'pem-certificate', required: true, secret: false,
    appliesWhen: { issuer: ['ca'] }, section: 'CA issuer',
    help: 'CA certificate; for an intermediate, the full chain: issuer, intermediate(s), root',
  },
  {
    name: 'cluster_issuer_ca_private_key', type: 'pem-key', required: true, secret: true,
    appliesWhen: { issuer: ['ca'] }, section: 'CA issuer', help: 'Private key of the CA certificate',
  },
  {
    name: 'cluster_issuer_ca_secret_name', type: 'string', default: 'cert-manager-issuer-ca',
    required: false, secret: false, asked: false, appliesWhen: { issuer: ['ca'] }, section: 'CA issuer',
    help: 'TLS Secret holding the CA certificate and key (ca.secretName)',
  },

  // Self-signed issuer
  {
    name: 'cluster_issuer_self_signed_certificate_name', type: 'string', default: 'self-signed-ca',
    required: false, secret: false, asked: false, appliesWhen: { issuer: ['self-signed'] }, section: 'Self-signed issuer',
    help: 'Certificate (in the cert-manager namespace) of the self-signed CA',
  },
  {
    name: 'cluster_issuer_self_signed_secret_name', type: 'string', default: 'cert-manager-selfsigned-ca',
    required: false, secret: false, asked: false, appliesWhen: { issuer: ['self-signed'] }, section: 'Self-signed issuer',
    help: 'Secret of the self-signed CA (the Certificate\'s secretName and ca.secretName)',
  },
];
