/** One complete inventory per branch of what the platform renders (issuer, solver, auth mode, wildcard). */
export const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
export const acme = { cluster_issuer_type: 'acme', cluster_issuer_acme_email: 'ops@example.com' };

export const BRANCHES: Record<string, Record<string, unknown>> = {
  'acme http01': { ...acme },
  'acme http01 internal server': { ...acme, cluster_issuer_acme_server: 'https://acme.internal.example.com/directory' },
  'acme clouddnsa': {
    ...acme, cluster_issuer_acme_solver: 'clouddnsa', cluster_issuer_acme_clouddnsa_client_id: 'cid',
    cluster_issuer_acme_clouddnsa_client_secret: 'csecret-1234', cluster_issuer_acme_clouddnsa_subscription_id: 'sub',
    cluster_issuer_acme_clouddnsa_tenant_id: 'tenant', cluster_issuer_acme_clouddnsa_resourcegroup_name: 'rg',
    cluster_issuer_acme_clouddnsa_hostedzone_name: 'cloud.example.com',
  },
  'acme rfc2136': {
    ...acme, cluster_issuer_acme_solver: 'rfc2136', cluster_issuer_acme_rfc2136_nameserver: '10.0.0.53:53',
    cluster_issuer_acme_rfc2136_tsig_algorithm: 'HMACSHA256', cluster_issuer_acme_rfc2136_tsig_key_name: 'acme',
    cluster_issuer_acme_rfc2136_tsig_secret_key: 'c2VjcmV0LXRzaWcta2V5',
  },
  'acme clouddnsb static': {
    ...acme, cluster_issuer_acme_solver: 'clouddnsb', cluster_issuer_acme_clouddnsb_region: 'eu-west-1',
    cluster_issuer_acme_clouddnsb_hosted_zone_id: 'Z123', cluster_issuer_acme_clouddnsb_access_key_id: 'AKIAEXAMPLE',
    cluster_issuer_acme_clouddnsb_secret_access_key: 'secret-access-key-1',
  },
  'acme clouddnsb ambient': {
    ...acme, cluster_issuer_acme_solver: 'clouddnsb', cluster_issuer_acme_clouddnsb_auth: 'ambient',
    cluster_issuer_acme_clouddnsb_region: 'eu-west-1', cluster_issuer_acme_clouddnsb_hosted_zone_id: 'Z123',
  },
  'acme clouddnsb clusteroidc': {
    ...acme, cluster_issuer_acme_solver: 'clouddnsb', cluster_issuer_acme_clouddnsb_auth: 'clusteroidc',
    cluster_issuer_acme_clouddnsb_region: 'eu-west-1', cluster_issuer_acme_clouddnsb_hosted_zone_id: 'Z123',
    cluster_issuer_acme_clouddnsb_role_arn: 'arn:aws:iam::123456789012:role/dns',
  },
  'acme dnsc': { ...acme, cluster_issuer_acme_solver: 'dnsc', cluster_issuer_acme_dnsc_api_token: 'token-1234' },
  'acme dnsd': { ...acme, cluster_issuer_acme_solver: 'dnsd', cluster_issuer_acme_dnsd_api_key: 'key-1', cluster_issuer_acme_dnsd_secret_key: 'skey-1' },
  'acme dnse': {
    ...acme, cluster_issuer_acme_solver: 'dnse', cluster_issuer_acme_dnse_view: 'default', cluster_issuer_acme_dnse_host: 'grid.example.com',
    cluster_issuer_acme_dnse_username: 'admin', cluster_issuer_acme_dnse_password: 'pass-1234',
  },
  'commercialca token': {
    cluster_issuer_type: 'commercialca', cluster_issuer_commercialca_ca: PEM, cluster_issuer_commercialca_zone: 'Certs\\Cloud',
    cluster_issuer_commercialca_tpp_url: 'https://tpp.example.com/vedsdk', cluster_issuer_commercialca_tpp_ca_bundle: Buffer.from(PEM).toString('base64'),
    cluster_issuer_commercialca_access_token: 'tpp-token-1',
  },
  'commercialca username and password': {
    cluster_issuer_type: 'commercialca', cluster_issuer_commercialca_ca: PEM, cluster_issuer_commercialca_zone: 'Certs\\Cloud',
    cluster_issuer_commercialca_tpp_url: 'https://tpp.example.com/vedsdk', cluster_issuer_commercialca_tpp_ca_bundle: Buffer.from(PEM).toString('base64'),
    cluster_issuer_commercialca_username: 'svc', cluster_issuer_commercialca_password: 'pw-1234',
  },
  ca: { cluster_issuer_type: 'ca', cluster_issuer_ca_certificate: PEM, cluster_issuer_ca_private_key: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n' },
  'self-signed': { cluster_issuer_type: 'self-signed' },
  'wildcard auto with acme': { ...acme, cloud_helm_ingress_wildcard_domain: 'cloud.example.com' },
  none: { cluster_issuer_type: 'none', cloud_helm_ingress_secret_name: 'wildcard-certs' },
};

