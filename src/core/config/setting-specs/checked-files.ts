/** Groups certificate and tls: the files and endpoints they check (sections `certificate:` and `tls:`); each group reads its section itself. */
import { inSection, type SettingSpec } from '../setting-schema.js';

export const CERTIFICATE_SETTINGS = inSection('certificate', [
  { name: 'files', type: 'path', list: true, flag: 'certificate', doc: 'certificate files to check (a list)' },
  { name: 'file', type: 'path', doc: 'one certificate file to check' },
  { name: 'key', type: 'path', flag: 'key', doc: 'its private key' },
  { name: 'domain', type: 'text', flag: 'domain', doc: 'the domain it must cover' },
]);

export const TLS_SETTINGS = [
  {
    name: 'endpoints',
    type: 'text',
    section: 'tls',
    list: true,
    merge: true,
    flag: 'endpoint',
    doc: 'endpoints to check, HOST[:PORT][@ADDRESS] (a list; the flags and the section add up)',
  },
] as const satisfies readonly SettingSpec[];

/** Group acme: what the DNS-01 credential check may do (its section also gives the inventory's DNS-01 variables). */
export const ACME_SETTINGS = [
  {
    name: 'probe_update',
    type: 'switch',
    section: 'acme',
    flag: 'probe-update',
    doc: 'write and delete one TXT record to prove DNS updates work (acme.dns-credentials)',
  },
] as const satisfies readonly SettingSpec[];
