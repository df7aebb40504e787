/** Doctor group `acme`: the ACME directory (`acme.directory`) and the RFC 2136 name server (`acme.rfc2136`). */
import type { Check, CheckResult } from '../../doctor/types.js';
import { appliesWhen, configured, firstClosed, type Gate } from '../../doctor/gates.js';
import type { CheckProvider } from '../../doctor/area.js';
import type { RunServices } from '../../doctor/services.js';
import { httpOf } from '../../net/http.js';
import { expectationsFrom } from '../../config/expectations.js';
import { inventoryValues } from '../../inventory/inventory.js';
import { checkDirectory, PUBLIC_ACME_DIRECTORY } from './directory.js';
import { isJinja } from '../../inventory/ansible-tagged.js';
import { DnsError, probeDns, TSIG_ALGORITHM_NAMES, type DnsAnswer, type TsigKey } from './dns-probe.js';
import { parseHostPort } from '../../config/formats.js';
import { ALGORITHM, isBase64, KEY_NAME, looksLikeKeyStatement, SECRET } from '../../config/tsig-key.js';
import { dnsCredentialsCheck } from './dns-credentials/index.js';
import { CLOSED, TITLES } from './messages.js';

/** What --verbose and --json show of acme.rfc2136: the name server asked and its answer. */
export interface NameserverFacts {
  nameserver: string;
  address?: string;
  query?: string;
  rcode?: string;
  authoritative?: boolean;
  zone?: string;
  key?: string;
  algorithm?: string;
  tsigError?: string;
  responseSigned?: boolean;
  responseVerified?: boolean;
  serverTime?: string;
}

export const provideChecks: CheckProvider = async (input) => {
  const values = await inventoryValues(input);
  const issuer = expectationsFrom(values).issuerType;
  const solver = typeof values.cluster_issuer_acme_solver === 'string' ? values.cluster_issuer_acme_solver : 'http01';
  // No issuer type at all: the inventory to read is missing. Not an ACME issuer: nothing to check.
  const acme: Gate = firstClosed(
    configured({ cluster_issuer_type: issuer }, CLOSED.noInventory(input.inventoryPath)),
    appliesWhen(issuer === 'acme', CLOSED.notAcme(issuer)),
  );
  const checks: Check[] = [
    {
      id: 'acme.directory',
      group: 'acme',
      title: TITLES.directory,
      gate: acme,
      run: async (ctx) => {
        const server = typeof values.cluster_issuer_acme_server === 'string' ? values.cluster_issuer_acme_server.trim() : '';
        return checkDirectory(
          httpOf(ctx.services),
          {
            url: server || PUBLIC_ACME_DIRECTORY,
            configured: Boolean(server),
            privateCa: values.cluster_issuer_acme_private_ca === true || values.cluster_issuer_acme_private_ca === 'true',
            caFileGiven: Boolean(ctx.services.network.caFile),
          },
          ctx.signal,
        );
      },
    },
    {
      id: 'acme.rfc2136',
      group: 'acme',
      title: TITLES.rfc2136,
      gate: firstClosed(acme, appliesWhen(solver === 'rfc2136', CLOSED.notRfc2136(solver))),
      run: async (ctx) => checkNameserver(values, ctx.services, ctx.signal),
    },
    dnsCredentialsCheck(values, input, acme),
  ];
  return checks;
};

/** What each refusal means for cert-manager's updates, and what to do. */
const REFUSALS: Record<string, (key: TsigKey, zone: string, where: string) => { meaning: string; advice: string }> = {
  BADSIG: (k) => ({
    meaning: `the server knows the key "${k.name}" but the secret does not match (BADSIG)`,
    advice: `Put the secret of "${k.name}" from the server's key file into ${SECRET} (in the setup answers: ${SECRET}: file:tsig.key).`,
  }),
  BADKEY: (k) => ({
    meaning: `the server knows no key "${k.name}" with algorithm ${k.algorithm} (BADKEY)`,
    advice: `Set ${KEY_NAME} and ${ALGORITHM} to the name and algorithm of a key statement in the server's configuration (tsig-keygen prints both), or add this key there.`,
  }),
  BADTIME: () => ({
    meaning: 'the clocks of this machine and the server differ by more than 5 minutes (BADTIME)',
    advice: 'Synchronise the clocks (NTP) of the name server, this machine and the cluster nodes: TSIG signatures are valid for 5 minutes only.',
  }),
  NOTAUTH: (k, zone, where) => ({
    meaning: `the server is not authoritative for ${zone}, or rejects the key "${k.name}" for it (NOTAUTH)`,
    advice: `Point cluster_issuer_acme_rfc2136_nameserver at the primary name server of the zone holding ${zone} and allow the key there; ${where} is not it.`,
  }),
  REFUSED: (k, zone, where) => ({
    meaning: `the server refused the query for ${zone} (REFUSED): it does not serve that zone, or does not let the key "${k.name}" query it`,
    advice: `Check that ${where} is the primary of the zone holding ${zone}, and that the zone allows the key (allow-query / allow-update { key "${k.name}"; } or update-policy).`,
  }),
};

async function checkNameserver(values: Record<string, unknown>, services: RunServices, signal: AbortSignal): Promise<CheckResult<NameserverFacts>> {
  const raw = String(values.cluster_issuer_acme_rfc2136_nameserver ?? '').trim();
  const parsed = parseHostPort(raw);
  if (!parsed.ok) {
    return {
      status: 'fail',
      message: raw ? `cluster_issuer_acme_rfc2136_nameserver "${raw}" is not host:port.` : 'cluster_issuer_acme_rfc2136_nameserver is not set.',
      advice: 'Give the name server as host:port, e.g. ns1.example.com:53 ([2001:db8::1]:53 for IPv6).',
    };
  }
  const target = { host: parsed.host, port: parsed.port };
  const wildcard = expectationsFrom(values).wildcardDomain;
  const zone = wildcard ?? '.';
  const where = `${target.host}:${target.port}`;
  const key = tsigKeyOf(values);
  if (typeof key === 'string') return { status: 'fail', message: key, advice: `Fix ${SECRET} (cloudgate doctor --only inventory says how).`, facts: { nameserver: where } };
  try {
    const answer = await probeDns({ ...target, zone, key: key ?? undefined, timeoutMs: Math.min(services.network.timeoutMs, 5000), signal, now: services.clock.now() });
    return nameserverResult(answer, key, { zone, wildcard, where });
  } catch (error) {
    if (!(error instanceof DnsError)) throw error;
    return {
      status: 'fail',
      message: `${error.message} (cluster_issuer_acme_rfc2136_nameserver)`,
      advice: error.code === 'resolve'
        ? 'Use a resolvable host name or an IP address.'
        : `Check the address and port in cluster_issuer_acme_rfc2136_nameserver and that UDP ${target.port} is open from here (and from the cluster).`,
      facts: { nameserver: where },
    };
  }
}

/**
 * What the name server's answer to the (TSIG-signed) SOA query means (pure): a refused key or zone,
 * an unsigned or unverified answer, authority for the wildcard domain's zone.
 */
export function nameserverResult(answer: DnsAnswer, key: TsigKey | null, at: { zone: string; wildcard?: string; where: string }): CheckResult<NameserverFacts> {
  const { zone, wildcard, where } = at;
  const facts: NameserverFacts = {
    nameserver: where, address: answer.address, query: `SOA ${zone}`, rcode: answer.rcode, authoritative: answer.authoritative,
    ...(answer.zone ? { zone: answer.zone } : {}),
    ...(key ? { key: key.name, algorithm: key.algorithm, tsigError: answer.tsig?.error, responseSigned: answer.tsig?.signed, responseVerified: answer.tsig?.verified } : {}),
    ...(answer.tsig?.serverTime ? { serverTime: answer.tsig.serverTime.toISOString() } : {}),
  };
  if (key) {
    const refusal = answer.tsig && answer.tsig.error !== 'NOERROR' ? answer.tsig.error : undefined;
    const explain = REFUSALS[refusal ?? (wildcard ? answer.rcode : '')];
    if (explain) {
      const { meaning, advice } = explain(key, zone, where);
      return { status: 'fail', message: `${where} did not accept the TSIG-signed query (SOA ${zone}): ${meaning}.`, advice, facts };
    }
    if (refusal) {
      return { status: 'fail', message: `${where} answered the TSIG-signed query with ${refusal}.`, advice: `Check ${KEY_NAME}, ${ALGORITHM} and ${SECRET} against the server's key.`, facts };
    }
    if (!answer.tsig?.signed || !answer.tsig.verified) {
      return {
        status: 'fail',
        message: `${where} answered (${answer.rcode}) but its answer ${answer.tsig?.signed ? 'carries a TSIG signature that does not verify with the key' : 'is not signed'} "${key.name}".`,
        advice: 'A server that accepts the key signs its answers with it: check that nothing between here and the server rewrites DNS, and that the key is the server\'s.',
        facts,
      };
    }
  }
  const accepted = key ? `; the TSIG key "${key.name}" (${key.algorithm}) is accepted and the answer's signature verifies` : '';
  if (!wildcard) {
    return { status: 'ok', message: `${where} answers DNS (SOA . → ${answer.rcode})${accepted}; no wildcard domain names the zone to check authority for.`, facts };
  }
  if ((answer.rcode === 'NOERROR' || answer.rcode === 'NXDOMAIN') && answer.authoritative) {
    const within = answer.zone && answer.zone.toLowerCase() !== zone.toLowerCase() ? ` (zone ${answer.zone})` : '';
    const unsigned = key ? '' : ` The TSIG key was not tested: ${KEY_NAME} or ${SECRET} is unset, vault-encrypted or a template here.`;
    return { status: 'ok', message: `${where} is authoritative for ${zone}${within}${accepted}.${unsigned}`, facts };
  }
  return {
    status: 'warn',
    message: `${where} answers DNS but not authoritatively for ${zone} (${answer.rcode}${answer.authoritative ? '' : ', not authoritative'}).`,
    advice: `RFC 2136 updates go to the primary name server of the zone that holds _acme-challenge records; check that ${where} serves ${zone} (or its parent zone).`,
    facts,
  };
}

/**
 * The key cert-manager will sign with; null when it cannot be known here (unset, vault-encrypted,
 * a Jinja expression); a message when the inventory's secret cannot be a TSIG secret.
 */
function tsigKeyOf(values: Record<string, unknown>): TsigKey | null | string {
  const name = values[KEY_NAME];
  const secret = values[SECRET];
  // Unset, the platform stops the deployment (it has no default): the key cert-manager would use is unknown.
  const algorithm = values[ALGORITHM];
  if (typeof name !== 'string' || typeof secret !== 'string' || typeof algorithm !== 'string') return null;
  if (isJinja(name) || isJinja(secret) || isJinja(algorithm) || !name.trim() || !secret.trim()) return null;
  if (looksLikeKeyStatement(secret)) return `${SECRET} holds a whole BIND key statement, not the base64 secret: cert-manager would sign with garbage.`;
  if (!isBase64(secret.trim())) return `${SECRET} is not base64, so it cannot be a TSIG secret.`;
  if (!TSIG_ALGORITHM_NAMES[algorithm.trim().toUpperCase()]) return null;
  return { name: name.trim(), algorithm: algorithm.trim().toUpperCase(), secret: secret.trim() };
}
