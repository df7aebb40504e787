/** Groups certificate and tls: the files and endpoints they check (sections `certificate:` and `tls:`); each group reads its section itself. */
import { inSection, type SettingSpec } from '../setting-schema.js';

export const CERTIFICATE_SETTINGS = inSection('certificate', [
  { name: 'files', type: 'path', doc: 'certificate files to check (a list)' },
  { name: 'file', type: 'path', doc: 'one certificate file to check' },
  { name: 'key', type: 'path', flag: 'key', doc: 'its private key' },
  { name: 'domain', type: 'text', flag: 'domain', doc: 'the domain it must cover' },
]);

export const TLS_SETTINGS = [
  { name: 'endpoints', type: 'text', section: 'tls', doc: 'endpoints to check, HOST[:PORT][@ADDRESS] (a list)' },
] as const satisfies readonly SettingSpec[];
