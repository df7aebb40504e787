/** Every setting cloudgate reads, declared by area: the resolver, `cloudgate config`, the --config key check and docs/settings.md read this list. */
import type { SettingSpec } from '../setting-schema.js';
import { GENERAL_SETTINGS } from './general.js';
import { SIGNIN_SETTINGS } from './signin.js';
import { DISCOVERY_SETTINGS } from './discovery.js';
import { ACME_SETTINGS, CERTIFICATE_SETTINGS, TLS_SETTINGS } from './checked-files.js';

/** By area, in the order the docs list them. */
export const SETTING_AREAS: readonly { area: string; title: string; settings: readonly SettingSpec[] }[] = [
  { area: 'general', title: 'Where a run starts (doctor, serve, token, oidc)', settings: GENERAL_SETTINGS },
  { area: 'signin', title: 'Group signin: the sign-in chain', settings: SIGNIN_SETTINGS },
  {
    area: 'discovery',
    title: 'Group discovery and cloudgate oidc: keyless DNS credentials',
    settings: DISCOVERY_SETTINGS,
  },
  { area: 'certificate', title: 'Group certificate: certificate files', settings: CERTIFICATE_SETTINGS },
  { area: 'tls', title: 'Group tls: endpoints', settings: TLS_SETTINGS },
  { area: 'acme', title: 'Group acme: DNS-01 credentials', settings: ACME_SETTINGS },
];

export const SETTING_SPECS: readonly SettingSpec[] = SETTING_AREAS.flatMap((a) => a.settings);

/** The spec of `name` read from `section` (its own section or an older one); undefined for a name no area declares. */
export function specOf(section: string | undefined, name: string): SettingSpec | undefined {
  return SETTING_SPECS.find(
    (s) =>
      s.name === name &&
      (section === undefined ? s.section === undefined : s.section === section || s.oldSections?.includes(section)),
  );
}

/** The settings `cloudgate config set` keeps. */
export const SAVED_SETTINGS: readonly SettingSpec[] = SETTING_SPECS.filter((s) => s.saved);
