/** Group discovery (and `cloudgate oidc`): the keyless DNS credentials' OIDC issuer and token exchange (section `discovery:`). */
import { inSection } from '../setting-schema.js';

export const DISCOVERY_SETTINGS = inSection('discovery', [
  { name: 'issuer_url', type: 'url', flag: 'issuer-url', doc: "the cluster's public OIDC issuer" },
  {
    name: 'token_file',
    type: 'path',
    flag: 'token-file',
    doc: 'a service-account token to exchange at the token service',
  },
  {
    name: 'sts_audience',
    type: 'text',
    flag: 'audience',
    doc: 'the audience the token is exchanged for (default sts.amazonaws.com)',
  },
  { name: 'audience', type: 'text', doc: 'the older name of sts_audience' },
  { name: 'in_cluster_audience', type: 'text', doc: "the cluster's own audience beside the public one" },
  { name: 'namespace', type: 'text', flag: 'namespace', doc: "cert-manager's namespace (default cert-manager)" },
  {
    name: 'service_account',
    type: 'text',
    flag: 'service-account',
    doc: 'the service account whose token is exchanged (default from the inventory)',
  },
  {
    name: 'controller_service_account',
    type: 'text',
    doc: "cert-manager controller's service account (default cert-manager)",
  },
]);
