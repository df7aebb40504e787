/** Where the platform's Ansible inventory keeps the certificate variables by default. */
export const DEFAULT_INVENTORY = 'inventory/group_vars/all/certificates.yml';
