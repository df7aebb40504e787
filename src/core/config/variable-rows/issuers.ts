/** Rows of the variables table: the commercial CA, CA and self-signed issuers. */
import type { Variable } from '../variable-types.js';

export const ISSUER_ROWS: Variable[] = [
  // Commercial CA issuer
  {
    name: 'cluster_issuer_commercialca_ca', platformName: 'cluster_issuer_venafi_ca',
    type: 'pem-certificate', required: true, secret: false,
    appliesWhen: { issuer: ['commercialca'] }, section: 'Commercial CA issuer',
    help: 'Issuing CA certificate; for an intermediate, the full chain: issuer, intermediate(s), root',
  },
  {
    name: 'cluster_issuer_commercialca_zone', platformName: 'cluster_issuer_venafi_zone',
    type: 'string', required: true, secret: false,
    appliesWhen: { issuer: ['commercialca'] }, section: 'Commercial CA issuer', help: 'Policy zone',
    example: 'Certificates\\Cloud',
  },
  {
    name: 'cluster_issuer_commercialca_tpp_url', platformName: 'cluster_issuer_venafi_tpp_url',
    type: 'url', required: true, secret: false,
    appliesWhen: { issuer: ['commercialca'] }, section: 'Commercial CA issuer', help: 'URL of the TPP server',
    example: 'https://tpp.example.com/vedsdk',
  },
  {
    name: 'cluster_issuer_commercialca_tpp_ca_bundle', platformName: 'cluster_issuer_venafi_tpp_ca_bundle',
    type: 'pem-certificate',
    required: false, platformNeeds: true, secret: false, appliesWhen: { issuer: ['commercialca'] }, section: 'Commercial CA issuer',
    help: 'CA bundle that signed the TPP server\'s certificate (needed by the platform, no default)',
  },
  {
    name: 'cluster_issuer_commercialca_access_token', platformName: 'cluster_issuer_venafi_access_token',
    type: 'string', required: false, secret: true,
    recommended: true, appliesWhen: { issuer: ['commercialca'] }, section: 'Commercial CA issuer',
    help: 'Access token (recommended; use it instead of username and password)',
  },
  {
    name: 'cluster_issuer_commercialca_username', platformName: 'cluster_issuer_venafi_username',
    type: 'string', required: false, secret: false, legacy: true,
    appliesWhen: { issuer: ['commercialca'] }, section: 'Commercial CA issuer',
    help: 'User name, with password: legacy authentication being phased out',
  },
  {
    name: 'cluster_issuer_commercialca_password', platformName: 'cluster_issuer_venafi_password',
    type: 'string', required: false, secret: true, legacy: true,
    appliesWhen: { issuer: ['commercialca'] }, section: 'Commercial CA issuer',
    help: 'Password, with user name: legacy authentication being phased out',
  },
  {
    name: 'cluster_issuer_commercialca_secret_name', platformName: 'cluster_issuer_venafi_secret_name',
    type: 'string', default: 'certmgr-commercialca-credentials', platformDefault: 'cert-manager-venafi-credentials',
    required: false, secret: false, asked: false, appliesWhen: { issuer: ['commercialca'] }, section: 'Commercial CA issuer',
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
    name: 'cluster_issuer_ca_secret_name', type: 'string', default: 'certmgr-issuer-ca', platformDefault: 'cert-manager-issuer-ca',
    required: false, secret: false, asked: false, appliesWhen: { issuer: ['ca'] }, section: 'CA issuer',
    help: 'TLS Secret holding the CA certificate and key (ca.secretName)',
  },

  // Self-signed issuer
  {
    name: 'cluster_issuer_self_signed_certificate_name', type: 'string', default: 'self-signed-ca',
    required: false, secret: false, asked: false, appliesWhen: { issuer: ['self-signed'] }, section: 'Self-signed issuer',
    help: 'Certificate (in the certificate manager\'s namespace) of the self-signed CA',
  },
  {
    name: 'cluster_issuer_self_signed_secret_name', type: 'string', default: 'certmgr-selfsigned-ca', platformDefault: 'cert-manager-selfsigned-ca',
    required: false, secret: false, asked: false, appliesWhen: { issuer: ['self-signed'] }, section: 'Self-signed issuer',
    help: 'Secret of the self-signed CA (the Certificate\'s secretName and ca.secretName)',
  },
];
