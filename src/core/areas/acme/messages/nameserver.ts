/**
 * The acme group's words about the rfc2136 name server: its address, what its answer to a TSIG-signed
 * query means (acme.rfc2136), and what a signed update did (acme.dns-credentials with --probe-update).
 */
import { ALGORITHM, KEY_NAME, SECRET } from '../../../config/tsig-key.js';

const NAMESERVER = 'cluster_issuer_acme_rfc2136_nameserver';

export const ADDRESS = {
  notHostPort: (raw: string) => `${NAMESERVER} "${raw}" is not host:port.`,
  unset: `${NAMESERVER} is not set.`,
  giveHostPort: 'Give the name server as host:port, e.g. ns1.example.com:53 ([2001:db8::1]:53 for IPv6).',
  giveHostPortV4: 'Give the name server as host:port, e.g. ns1.example.com:53.',
  unreachable: (error: string) => `${error} (${NAMESERVER})`,
  useResolvableName: 'Use a resolvable host name or an IP address.',
  checkAddressAndCluster: (port: number) =>
    `Check the address and port in ${NAMESERVER} and that UDP ${port} is open from here (and from the cluster).`,
  checkAddress: (port: number) => `Check the address and port in ${NAMESERVER} and that UDP ${port} is open from here.`,
} as const;

/** The inventory's TSIG secret, as far as it can be judged here. */
export const TSIG_SECRET = {
  fix: `Fix ${SECRET} (cloudgate doctor --only inventory says how).`,
  wholeKeyStatement: `${SECRET} holds a whole BIND key statement, not the base64 secret: cert-manager would sign with garbage.`,
  notBase64: `${SECRET} is not base64, so it cannot be a TSIG secret.`,
} as const;

/** What a refused TSIG-signed query means for cert-manager's updates, and what to do, by the server's error. */
export const REFUSAL = {
  BADSIG: (key: string) => ({
    meaning: `the server knows the key "${key}" but the secret does not match (BADSIG)`,
    advice: `Put the secret of "${key}" from the server's key file into ${SECRET} (in the setup answers: ${SECRET}: file:tsig.key).`,
  }),
  BADKEY: (key: string, algorithm: string) => ({
    meaning: `the server knows no key "${key}" with algorithm ${algorithm} (BADKEY)`,
    advice: `Set ${KEY_NAME} and ${ALGORITHM} to the name and algorithm of a key statement in the server's configuration (tsig-keygen prints both), or add this key there.`,
  }),
  BADTIME: () => ({
    meaning: 'the clocks of this machine and the server differ by more than 5 minutes (BADTIME)',
    advice:
      'Synchronise the clocks (NTP) of the name server, this machine and the cluster nodes: TSIG signatures are valid for 5 minutes only.',
  }),
  NOTAUTH: (key: string, zone: string, where: string) => ({
    meaning: `the server is not authoritative for ${zone}, or rejects the key "${key}" for it (NOTAUTH)`,
    advice: `Point ${NAMESERVER} at the primary name server of the zone holding ${zone} and allow the key there; ${where} is not it.`,
  }),
  REFUSED: (key: string, zone: string, where: string) => ({
    meaning: `the server refused the query for ${zone} (REFUSED): it does not serve that zone, or does not let the key "${key}" query it`,
    advice: `Check that ${where} is the primary of the zone holding ${zone}, and that the zone allows the key (allow-query / allow-update { key "${key}"; } or update-policy).`,
  }),
} as const;

/** The name server's answer to the SOA query (acme.rfc2136). */
export const ANSWER = {
  notAccepted: (where: string, zone: string, meaning: string) =>
    `${where} did not accept the TSIG-signed query (SOA ${zone}): ${meaning}.`,
  refused: (where: string, refusal: string) => `${where} answered the TSIG-signed query with ${refusal}.`,
  checkKey: `Check ${KEY_NAME}, ${ALGORITHM} and ${SECRET} against the server's key.`,
  notVerified: (where: string, rcode: string, signed: boolean, key: string) =>
    `${where} answered (${rcode}) but its answer ${signed ? 'carries a TSIG signature that does not verify with the key' : 'is not signed'} "${key}".`,
  checkRewrite:
    "A server that accepts the key signs its answers with it: check that nothing between here and the server rewrites DNS, and that the key is the server's.",
  keyAccepted: (key: string, algorithm: string) =>
    `; the TSIG key "${key}" (${algorithm}) is accepted and the answer's signature verifies`,
  answersRoot: (where: string, rcode: string, accepted: string) =>
    `${where} answers DNS (SOA . → ${rcode})${accepted}; no wildcard domain names the zone to check authority for.`,
  withinZone: (zone: string) => ` (zone ${zone})`,
  keyNotTested: ` The TSIG key was not tested: ${KEY_NAME} or ${SECRET} is unset, vault-encrypted or a template here.`,
  authoritative: (where: string, zone: string, within: string, accepted: string, unsigned: string) =>
    `${where} is authoritative for ${zone}${within}${accepted}.${unsigned}`,
  notAuthoritative: (where: string, zone: string, rcode: string, authoritative: boolean) =>
    `${where} answers DNS but not authoritatively for ${zone} (${rcode}${authoritative ? '' : ', not authoritative'}).`,
  updatesGoToPrimary: (where: string, zone: string) =>
    `RFC 2136 updates go to the primary name server of the zone that holds _acme-challenge records; check that ${where} serves ${zone} (or its parent zone).`,
} as const;

/** What a signed DNS update did (--probe-update). */
export const UPDATE = {
  refused: (where: string, zone: string, key: string) =>
    `${where} refused the update of ${zone} signed with the key ${key} (REFUSED).`,
  allowKey: (key: string, zone: string) =>
    `Allow the key to change TXT records of the zone: in named.conf, update-policy { grant ${key} zonesub TXT; }; (or allow-update { key ${key}; };) in zone "${zone}".`,
  answered: (where: string, rcode: string, zone: string) => `${where} answered ${rcode} to the update of ${zone}.`,
  readServerLog: "Check the name server's log for the reason.",
  notDeleted: (record: string, rcode: string) =>
    `--probe-update added the TXT record ${record} but could not delete it (${rcode}).`,
  deleteByHand: (record: string) => `Delete it by hand: nsupdate with the key, "update delete ${record} TXT".`,
  accepted: (where: string, key: string, record: string) =>
    `${where} accepted a DNS update signed with the key ${key}: --probe-update added and removed the TXT record ${record}.`,
  notAuthoritative: (where: string, domain: string) =>
    `${where} is not authoritative for ${domain} or any parent of it (NOTAUTH).`,
  pointAtPrimary: `Point ${NAMESERVER} at the primary name server of the zone that holds the domain.`,
  keyRefused: (where: string, tsigError: string) => `${where} refused the key (${tsigError}).`,
  keyAdvice: {
    BADKEY:
      'The server does not know a key of this name and algorithm: compare cluster_issuer_acme_rfc2136_tsig_key_name and _tsig_algorithm with the key block in named.conf.',
    BADSIG:
      'The key name is known but the secret differs: put the secret of the key block in named.conf in cluster_issuer_acme_rfc2136_tsig_secret_key.',
    BADTIME: 'The clocks of this machine and the name server differ by more than 5 minutes: set both right (NTP).',
  } as Record<string, string>,
  checkKey: 'Check the TSIG key name, algorithm and secret.',
} as const;
