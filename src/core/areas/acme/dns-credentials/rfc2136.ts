/**
 * rfc2136 with --probe-update: one TSIG-signed DNS UPDATE adds the TXT record `_cloudgate-probe.<zone>`
 * and a second deletes exactly that record. The zone is the domain or the first parent the server is
 * authoritative for. (Without --probe-update the key is checked by acme.rfc2136's signed query.)
 */
import type { CheckResult } from '../../../doctor/types.js';
import { parseHostPort } from '../../../config/formats.js';
import { DnsError, type TsigKey } from '../dns-probe.js';
import { sendUpdate } from './dns-update.js';
import { PROBE_LABEL, type ProviderRun, credential, fail, probeValue, zoneCandidates, type DnsFacts } from './shared.js';

export async function probeRfc2136(run: ProviderRun): Promise<CheckResult<DnsFacts>> {
  const raw = credential(run, 'cluster_issuer_acme_rfc2136_nameserver');
  const parsed = parseHostPort(raw.trim());
  if (!parsed.ok) return fail(`cluster_issuer_acme_rfc2136_nameserver "${raw}" is not host:port.`, 'Give the name server as host:port, e.g. ns1.example.com:53.');
  const target = { host: parsed.host, port: parsed.port };
  const key: TsigKey = {
    name: credential(run, 'cluster_issuer_acme_rfc2136_tsig_key_name'),
    // No default: the platform stops the deployment when it is unset.
    algorithm: credential(run, 'cluster_issuer_acme_rfc2136_tsig_algorithm'),
    secret: credential(run, 'cluster_issuer_acme_rfc2136_tsig_secret_key', { secret: true }),
  };
  const where = `${target.host}:${target.port}`;
  const facts: DnsFacts = { provider: 'rfc2136', nameserver: where, keyName: key.name, algorithm: key.algorithm };
  // Listed only with a domain (index.ts): the zone to update is the domain's or a parent's.
  const domain = run.domain!;
  const value = probeValue();
  const timeoutMs = Math.min(run.input.network.timeoutMs, 5000);
  const tried: string[] = [];
  try {
    for (const zone of zoneCandidates(domain)) {
      const record = `${PROBE_LABEL}.${zone}`;
      const added = await sendUpdate({ ...target, zone, record, value, action: 'add', key, timeoutMs, signal: run.signal, now: run.services.clock.now() });
      if (added.tsigError !== 'NOERROR') return keyFailure(added.tsigError, where, facts);
      if (added.rcode === 'NOTAUTH' || added.rcode === 'NOTZONE') {
        tried.push(zone);
        continue;
      }
      facts.zone = zone;
      facts.rcode = added.rcode;
      if (added.rcode === 'REFUSED') {
        return fail(`${where} refused the update of ${zone} signed with the key ${key.name} (REFUSED).`,
          `Allow the key to change TXT records of the zone: in named.conf, update-policy { grant ${key.name} zonesub TXT; }; (or allow-update { key ${key.name}; };) in zone "${zone}".`, facts);
      }
      if (added.rcode !== 'NOERROR') {
        return fail(`${where} answered ${added.rcode} to the update of ${zone}.`, 'Check the name server\'s log for the reason.', facts);
      }
      const removed = await sendUpdate({ ...target, zone, record, value, action: 'delete', key, timeoutMs, signal: run.signal, now: run.services.clock.now() });
      if (removed.rcode !== 'NOERROR' || removed.tsigError !== 'NOERROR') {
        return fail(`--probe-update added the TXT record ${record} but could not delete it (${removed.rcode}).`, `Delete it by hand: nsupdate with the key, "update delete ${record} TXT".`, facts);
      }
      facts.probe = record;
      return { status: 'ok', message: `${where} accepted a DNS update signed with the key ${key.name}: --probe-update added and removed the TXT record ${record}.`, facts };
    }
  } catch (error) {
    if (!(error instanceof DnsError)) throw error;
    return fail(`${error.message} (cluster_issuer_acme_rfc2136_nameserver)`, `Check the address and port in cluster_issuer_acme_rfc2136_nameserver and that UDP ${target.port} is open from here.`, facts);
  }
  facts.tried = tried;
  return fail(`${where} is not authoritative for ${domain} or any parent of it (NOTAUTH).`, 'Point cluster_issuer_acme_rfc2136_nameserver at the primary name server of the zone that holds the domain.', facts);
}

function keyFailure(tsigError: string, where: string, facts: DnsFacts): CheckResult<DnsFacts> {
  facts.tsigError = tsigError;
  const advice: Record<string, string> = {
    BADKEY: 'The server does not know a key of this name and algorithm: compare cluster_issuer_acme_rfc2136_tsig_key_name and _tsig_algorithm with the key block in named.conf.',
    BADSIG: 'The key name is known but the secret differs: put the secret of the key block in named.conf in cluster_issuer_acme_rfc2136_tsig_secret_key.',
    BADTIME: 'The clocks of this machine and the name server differ by more than 5 minutes: set both right (NTP).',
  };
  return fail(`${where} refused the key (${tsigError}).`, advice[tsigError] ?? 'Check the TSIG key name, algorithm and secret.', facts);
}
