/** The settings of the whole tool: what every run starts from, the ones `cloudgate config set` keeps. */
import type { SettingSpec } from '../setting-schema.js';

export const GENERAL_SETTINGS = [
  {
    name: 'inventory',
    type: 'path',
    flag: 'inventory',
    saved: true,
    doc: 'the inventory file or folder (the folder holding hosts.yml and group_vars/)',
  },
  {
    name: 'cloud',
    type: 'text',
    flag: 'cloud',
    env: ['OS_CLOUD'],
    saved: true,
    doc: "the clouds.yaml entry the sign-in chain's settings are taken from (as openstack --os-cloud)",
  },
  {
    name: 'context',
    type: 'text',
    section: 'kube',
    oldSections: ['discovery'],
    flag: 'context',
    saved: true,
    doc: 'the kubeconfig context of the cluster checks (kubectl config get-contexts)',
  },
  {
    name: 'ca_file',
    type: 'path',
    flag: 'ca-file',
    env: ['OS_CACERT'],
    clouds: true,
    saved: true,
    doc: 'a PEM file of CA certificates to trust besides the system ones (clouds.yaml: cacert)',
  },
] as const satisfies readonly SettingSpec[];
