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
import { ADDRESS, ANSWER, REFUSAL, TSIG_SECRET } from './messages/nameserver.js';

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
        const server =
          typeof values.cluster_issuer_acme_server === 'string' ? values.cluster_issuer_acme_server.trim() : '';
        return checkDirectory(
          httpOf(ctx.services),
          {
            url: server || PUBLIC_ACME_DIRECTORY,
            configured: Boolean(server),
            privateCa:
              values.cluster_issuer_acme_private_ca === true || values.cluster_issuer_acme_private_ca === 'true',
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
  BADSIG: (k) => REFUSAL.BADSIG(k.name),
  BADKEY: (k) => REFUSAL.BADKEY(k.name, k.algorithm),
  BADTIME: () => REFUSAL.BADTIME(),
  NOTAUTH: (k, zone, where) => REFUSAL.NOTAUTH(k.name, zone, where),
  REFUSED: (k, zone, where) => REFUSAL.REFUSED(k.name, zone, where),
};

async function checkNameserver(
  values: Record<string, unknown>,
  services: RunServices,
  signal: AbortSignal,
): Promise<CheckResult<NameserverFacts>> {
  const raw = String(values.cluster_issuer_acme_rfc2136_nameserver ?? '').trim();
  const parsed = parseHostPort(raw);
  if (!parsed.ok) {
    return {
      status: 'fail',
      message: raw ? ADDRESS.notHostPort(raw) : ADDRESS.unset,
      advice: ADDRESS.giveHostPort,
    };
  }
  const target = { host: parsed.host, port: parsed.port };
  const wildcard = expectationsFrom(values).wildcardDomain;
  const zone = wildcard ?? '.';
  const where = `${target.host}:${target.port}`;
  const key = tsigKeyOf(values);
  if (typeof key === 'string')
    return { status: 'fail', message: key, advice: TSIG_SECRET.fix, facts: { nameserver: where } };
  try {
    const answer = await probeDns({
      ...target,
      zone,
      key: key ?? undefined,
      timeoutMs: Math.min(services.network.timeoutMs, 5000),
      signal,
      now: services.clock.now(),
    });
    return nameserverResult(answer, key, { zone, wildcard, where });
  } catch (error) {
    if (!(error instanceof DnsError)) throw error;
    return {
      status: 'fail',
      message: ADDRESS.unreachable(error.message),
      advice: error.code === 'resolve' ? ADDRESS.useResolvableName : ADDRESS.checkAddressAndCluster(target.port),
      facts: { nameserver: where },
    };
  }
}

/**
 * What the name server's answer to the (TSIG-signed) SOA query means (pure): a refused key or zone,
 * an unsigned or unverified answer, authority for the wildcard domain's zone.
 */
export function nameserverResult(
  answer: DnsAnswer,
  key: TsigKey | null,
  at: { zone: string; wildcard?: string; where: string },
): CheckResult<NameserverFacts> {
  const { zone, wildcard, where } = at;
  const facts: NameserverFacts = {
    nameserver: where,
    address: answer.address,
    query: `SOA ${zone}`,
    rcode: answer.rcode,
    authoritative: answer.authoritative,
    ...(answer.zone ? { zone: answer.zone } : {}),
    ...(key
      ? {
          key: key.name,
          algorithm: key.algorithm,
          tsigError: answer.tsig?.error,
          responseSigned: answer.tsig?.signed,
          responseVerified: answer.tsig?.verified,
        }
      : {}),
    ...(answer.tsig?.serverTime ? { serverTime: answer.tsig.serverTime.toISOString() } : {}),
  };
  if (key) {
    const refusal = answer.tsig && answer.tsig.error !== 'NOERROR' ? answer.tsig.error : undefined;
    const explain = REFUSALS[refusal ?? (wildcard ? answer.rcode : '')];
    if (explain) {
      const { meaning, advice } = explain(key, zone, where);
      return { status: 'fail', message: ANSWER.notAccepted(where, zone, meaning), advice, facts };
    }
    if (refusal) {
      return { status: 'fail', message: ANSWER.refused(where, refusal), advice: ANSWER.checkKey, facts };
    }
    if (!answer.tsig?.signed || !answer.tsig.verified) {
      return {
        status: 'fail',
        message: ANSWER.notVerified(where, answer.rcode, Boolean(answer.tsig?.signed), key.name),
        advice: ANSWER.checkRewrite,
        facts,
      };
    }
  }
  const accepted = key ? ANSWER.keyAccepted(key.name, key.algorithm) : '';
  if (!wildcard) {
    return { status: 'ok', message: ANSWER.answersRoot(where, answer.rcode, accepted), facts };
  }
  if ((answer.rcode === 'NOERROR' || answer.rcode === 'NXDOMAIN') && answer.authoritative) {
    const within =
      answer.zone && answer.zone.toLowerCase() !== zone.toLowerCase() ? ANSWER.withinZone(answer.zone) : '';
    const unsigned = key ? '' : ANSWER.keyNotTested;
    return { status: 'ok', message: ANSWER.authoritative(where, zone, within, accepted, unsigned), facts };
  }
  return {
    status: 'warn',
    message: ANSWER.notAuthoritative(where, zone, answer.rcode, answer.authoritative),
    advice: ANSWER.updatesGoToPrimary(where, zone),
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
  if (looksLikeKeyStatement(secret)) return TSIG_SECRET.wholeKeyStatement;
  if (!isBase64(secret.trim())) return TSIG_SECRET.notBase64;
  if (!TSIG_ALGORITHM_NAMES[algorithm.trim().toUpperCase()]) return null;
  return { name: name.trim(), algorithm: algorithm.trim().toUpperCase(), secret: secret.trim() };
}
