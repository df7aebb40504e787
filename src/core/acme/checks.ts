/** Doctor group `acme`: the ACME directory (`acme.directory`) and the RFC 2136 name server (`acme.rfc2136`). */
import type { Check, CheckResult } from '../doctor/types.js';
import type { CheckProvider, DoctorInput } from '../doctor/input.js';
import { httpClientFor } from '../http.js';
import { expectationsFrom } from '../served/expectations.js';
import { inventoryValues } from '../inventory.js';
import { checkDirectory, PUBLIC_ACME_DIRECTORY } from './directory.js';
import { DnsProbeError, parseNameserver, probeDns } from './dns-probe.js';
import { dnsCredentialsCheck } from './dns-credentials/index.js';

export const provideChecks: CheckProvider = async (input) => {
  const values = await inventoryValues(input);
  const issuer = expectationsFrom(values).issuerType;
  const solver = typeof values.cluster_issuer_acme_solver === 'string' ? values.cluster_issuer_acme_solver : 'http01';
  const notAcme = (): CheckResult => ({
    status: 'skip',
    message: issuer ? `cluster_issuer_type is ${issuer}, not acme.` : `No inventory at ${input.inventoryPath}: nothing says an ACME issuer is used (give --inventory).`,
  });
  const checks: Check[] = [
    {
      id: 'acme.directory',
      group: 'acme',
      title: 'ACME server directory',
      run: async (ctx) => {
        if (issuer !== 'acme') return notAcme();
        const server = typeof values.cluster_issuer_acme_server === 'string' ? values.cluster_issuer_acme_server.trim() : '';
        return checkDirectory(
          httpClientFor(input.network),
          {
            url: server || PUBLIC_ACME_DIRECTORY,
            configured: Boolean(server),
            privateCa: values.cluster_issuer_acme_private_ca === true || values.cluster_issuer_acme_private_ca === 'true',
            caFileGiven: Boolean(input.network.caFile),
          },
          ctx.signal,
        );
      },
    },
    {
      id: 'acme.rfc2136',
      group: 'acme',
      title: 'RFC 2136 name server answers DNS',
      run: async (ctx) => {
        if (issuer !== 'acme') return notAcme();
        if (solver !== 'rfc2136') return { status: 'skip', message: `The ACME solver is ${solver}, not rfc2136.` };
        return checkNameserver(values, input, ctx.signal);
      },
    },
    dnsCredentialsCheck(values, input, notAcme),
  ];
  return checks;
};

async function checkNameserver(values: Record<string, unknown>, input: DoctorInput, signal: AbortSignal): Promise<CheckResult> {
  const raw = String(values.cluster_issuer_acme_rfc2136_nameserver ?? '').trim();
  const target = parseNameserver(raw);
  if (!target) {
    return {
      status: 'fail',
      message: raw ? `cluster_issuer_acme_rfc2136_nameserver "${raw}" is not host:port.` : 'cluster_issuer_acme_rfc2136_nameserver is not set.',
      advice: 'Give the name server as host:port, e.g. ns1.example.com:53 ([2001:db8::1]:53 for IPv6).',
    };
  }
  const wildcard = expectationsFrom(values).wildcardDomain;
  const zone = wildcard ?? '.';
  const where = `${target.host}:${target.port}`;
  try {
    const answer = await probeDns({ ...target, zone, timeoutMs: Math.min(input.network.timeoutMs, 5000), signal });
    const details = { nameserver: where, address: answer.address, query: `SOA ${zone}`, rcode: answer.rcode, authoritative: answer.authoritative };
    if (!wildcard) {
      return { status: 'ok', message: `${where} answers DNS (SOA . → ${answer.rcode}); no wildcard domain names the zone to check authority for.`, details };
    }
    if (answer.rcode === 'NOERROR' && answer.authoritative && answer.answers > 0) {
      return { status: 'ok', message: `${where} answers DNS and is authoritative for ${zone}.`, details };
    }
    return {
      status: 'warn',
      message: `${where} answers DNS but not authoritatively for ${zone} (${answer.rcode}${answer.authoritative ? '' : ', not authoritative'}).`,
      advice: `RFC 2136 updates go to the primary name server of the zone that holds _acme-challenge records; check that ${where} serves ${zone} (or its parent zone).`,
      details,
    };
  } catch (error) {
    if (!(error instanceof DnsProbeError)) throw error;
    return {
      status: 'fail',
      message: `${error.message} (cluster_issuer_acme_rfc2136_nameserver)`,
      advice: error.code === 'resolve'
        ? 'Use a resolvable host name or an IP address.'
        : `Check the address and port in cluster_issuer_acme_rfc2136_nameserver and that UDP ${target.port} is open from here (and from the cluster).`,
      details: { nameserver: where },
    };
  }
}
