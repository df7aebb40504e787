/** One complete inventory per branch of what the platform renders (issuer, solver, auth mode, wildcard). */
export const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
export const acme = { cluster_issuer_type: 'acme', cluster_issuer_acme_email: 'ops@example.com' };

export const BRANCHES: Record<string, Record<string, unknown>> = {
  'acme http01': { ...acme },
  'acme http01 internal server': { ...acme, cluster_issuer_acme_server: 'https://acme.internal.example.com/directory' },
  'acme azuredns': {
    ...acme, cluster_issuer_acme_solver: 'azuredns', cluster_issuer_acme_azuredns_client_id: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee',
    cluster_issuer_acme_azuredns_client_secret: 'csecret-1234', cluster_issuer_acme_azuredns_subscription_id: '99999999-8888-7777-6666-555555555555',
    cluster_issuer_acme_azuredns_tenant_id: '11111111-2222-3333-4444-555555555555', cluster_issuer_acme_azuredns_resourcegroup_name: 'rg',
    cluster_issuer_acme_azuredns_hostedzone_name: 'cloud.example.com',
  },
  'acme rfc2136': {
    ...acme, cluster_issuer_acme_solver: 'rfc2136', cluster_issuer_acme_rfc2136_nameserver: '10.0.0.53:53',
    cluster_issuer_acme_rfc2136_tsig_algorithm: 'HMACSHA256', cluster_issuer_acme_rfc2136_tsig_key_name: 'acme',
    cluster_issuer_acme_rfc2136_tsig_secret_key: 'c2VjcmV0LXRzaWcta2V5',
  },
  'acme route53 static': {
    ...acme, cluster_issuer_acme_solver: 'route53', cluster_issuer_acme_route53_region: 'eu-west-1',
    cluster_issuer_acme_route53_hosted_zone_id: 'Z123', cluster_issuer_acme_route53_access_key_id: 'AKIAEXAMPLE',
    cluster_issuer_acme_route53_secret_access_key: 'secret-access-key-1',
  },
  'acme route53 ambient': {
    ...acme, cluster_issuer_acme_solver: 'route53', cluster_issuer_acme_route53_auth: 'ambient',
    cluster_issuer_acme_route53_region: 'eu-west-1', cluster_issuer_acme_route53_hosted_zone_id: 'Z123',
  },
  'acme route53 kubernetes': {
    ...acme, cluster_issuer_acme_solver: 'route53', cluster_issuer_acme_route53_auth: 'kubernetes',
    cluster_issuer_acme_route53_region: 'eu-west-1', cluster_issuer_acme_route53_hosted_zone_id: 'Z123',
    cluster_issuer_acme_route53_role_arn: 'arn:aws:iam::123456789012:role/dns',
  },
  'acme cloudflare': { ...acme, cluster_issuer_acme_solver: 'cloudflare', cluster_issuer_acme_cloudflare_api_token: 'token-1234' },
  'acme godaddy': { ...acme, cluster_issuer_acme_solver: 'godaddy', cluster_issuer_acme_godaddy_api_key: 'key-1', cluster_issuer_acme_godaddy_secret_key: 'skey-1' },
  'acme infoblox': {
    ...acme, cluster_issuer_acme_solver: 'infoblox', cluster_issuer_acme_infoblox_view: 'default', cluster_issuer_acme_infoblox_host: 'grid.example.com',
    cluster_issuer_acme_infoblox_username: 'admin', cluster_issuer_acme_infoblox_password: 'pass-1234',
  },
  'venafi token': {
    cluster_issuer_type: 'venafi', cluster_issuer_venafi_ca: PEM, cluster_issuer_venafi_zone: 'Certs\\Cloud',
    cluster_issuer_venafi_tpp_url: 'https://tpp.example.com/vedsdk', cluster_issuer_venafi_tpp_ca_bundle: Buffer.from(PEM).toString('base64'),
    cluster_issuer_venafi_access_token: 'tpp-token-1',
  },
  'venafi username and password': {
    cluster_issuer_type: 'venafi', cluster_issuer_venafi_ca: PEM, cluster_issuer_venafi_zone: 'Certs\\Cloud',
    cluster_issuer_venafi_tpp_url: 'https://tpp.example.com/vedsdk', cluster_issuer_venafi_tpp_ca_bundle: Buffer.from(PEM).toString('base64'),
    cluster_issuer_venafi_username: 'svc', cluster_issuer_venafi_password: 'pw-1234',
  },
  ca: { cluster_issuer_type: 'ca', cluster_issuer_ca_certificate: PEM, cluster_issuer_ca_private_key: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n' },
  'self-signed': { cluster_issuer_type: 'self-signed' },
  'wildcard auto with acme': { ...acme, openstack_helm_ingress_wildcard_domain: 'cloud.example.com' },
  none: { cluster_issuer_type: 'none', openstack_helm_ingress_secret_name: 'wildcard-certs' },
};

