/**
 * The certificate group's texts in one place: the checks' titles and results worded by the group itself
 * (what was given, what could not be read). The findings about a certificate's contents are worded by
 * the examination they come from (core/tls), shared with setup's validation.
 */
export const TITLES = {
  files: 'Certificates to check',
} as const;

export const CLOSED = {
  nothingGiven: 'No certificate given and no PEM variable in the inventory.',
  giveCertificate: 'Pass --certificate FILE [--key FILE] [--domain D], or list them under "certificate:" in --config.',
} as const;

export const GIVEN = {
  withoutCertificate: (flags: string[], checkingKey: boolean) =>
    `${flags.map((f) => `--${f}`).join(' and ')} given without --certificate: there is no certificate to check ${checkingKey ? 'the key against' : 'the domain of'}.`,
  addCertificate: 'Add --certificate FILE (the certificate, then its intermediate(s) and root, in one PEM file).',
} as const;

export const CHAIN_ORDER = {
  unknown: 'Not checked: the chain order could not be established (see chain-order).',
  fixFirst: 'Fix what the "chain-order" line reports first.',
} as const;

export const UNREADABLE = {
  noSuchFile: (what: string, path: string) => `Cannot read the ${what} file ${path}: no such file.`,
  permissionDenied: (what: string, path: string) => `Cannot read the ${what} file ${path}: permission denied.`,
  runAsReader: (path: string) => `Run as a user who can read ${path}.`,
  checkPath: 'Check the path given with --certificate/--key or in the config.',
} as const;
