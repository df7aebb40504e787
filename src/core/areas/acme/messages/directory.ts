/** The acme group's words about the ACME server's directory (acme.directory). */

export const DIRECTORY = {
  configuredServer: 'cluster_issuer_acme_server',
  publicDefault: 'the public ACME CA used when cluster_issuer_acme_server is unset',
  notOk: (url: string, status: number) => `The ACME directory ${url} answered ${status}, not 200.`,
  giveDirectoryUrl: (origin: string) =>
    `Check ${origin}: it must be the directory URL itself (often ending in /directory).`,
  notObject: (url: string) => `The ACME directory ${url} is JSON but not an object.`,
  checkOrigin: (origin: string) => `Check ${origin}.`,
  lacksRequired: (url: string, missing: string[]) =>
    `The ACME directory ${url} lacks ${missing.join(', ')}${missing.includes('newOrder') ? ' (cert-manager rejects a directory without newOrder)' : ''}.`,
  notAcme: (origin: string) =>
    `This is not an ACME (RFC 8555) directory: check ${origin} points at the directory URL, not the server's home page.`,
  newNonceFailed: (url: string, why: string) => `newNonce (${url}): ${why}`,
  noNonce: (url: string) =>
    `HEAD ${url} (newNonce) returned no Replay-Nonce header; no ACME request can be signed without one.`,
  nonceStripped: 'A proxy in front of the ACME server may strip the header, or the URL is not an ACME server.',
  lacksExpected: (absent: string[]) => `The directory lacks ${absent.join(', ')}.`,
  noRevocation: 'Revocation or account key rollover will not work against this server.',
  eabRequired:
    'The server requires external account binding (meta.externalAccountRequired), which the platform does not configure.',
  eabWillFail:
    'Account registration will fail (ErrRegisterACMEAccount); use a server without EAB or configure the binding on the issuer by hand.',
  staging: (url: string) => `${url} is a staging directory: its certificates are not trusted by any client.`,
  useProduction: 'Use the production directory for real endpoints.',
  plainHttp: (url: string) => `${url} is plain http://.`,
  useHttps: 'Serve the ACME directory over https://.',
  healthy: (url: string) =>
    `${url} is an ACME directory (newNonce, newAccount, newOrder present; Replay-Nonce issued).`,
  caFileDoesNotSign: (privateCa: boolean) =>
    `The CA file given does not sign the ACME server's certificate. ${privateCa ? '' : 'If the server uses a private CA, also set cluster_issuer_acme_private_ca: true so the platform trusts it. '}`,
  unknownCa: (privateCa: boolean) =>
    `The ACME server's certificate is signed by a CA this machine does not trust: pass it with --ca-file PEM${privateCa ? " (cluster_issuer_acme_private_ca is true: the platform trusts it through the nodes' CA store, cloudgate must be told the file)" : ', and set cluster_issuer_acme_private_ca: true so the platform trusts it'}.`,
  notDirectory: (origin: string) => `Check ${origin}: it must be the ACME directory URL (often ending in /directory).`,
} as const;
