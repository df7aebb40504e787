/**
 * rfc2136 with --probe-update: one TSIG-signed DNS UPDATE adds the TXT record `_cloudgate-probe.<zone>`
 * and a second deletes exactly that record. The zone is the domain or the first parent the server is
 * authoritative for. (Without --probe-update the key is checked by acme.rfc2136's signed query.)
 */
import type { CheckResult } from '../../../doctor/types.js';
import { parseHostPort } from '../../../config/formats.js';
import { DnsError, type TsigKey } from '../dns-probe.js';
import { sendUpdate } from './dns-update.js';
import {
  PROBE_LABEL,
  type ProviderRun,
  credential,
  fail,
  probeValue,
  zoneCandidates,
  type DnsFacts,
} from './shared.js';
import { ADDRESS, UPDATE } from '../messages/nameserver.js';

export async function probeRfc2136(run: ProviderRun): Promise<CheckResult<DnsFacts>> {
  const raw = credential(run, 'cluster_issuer_acme_rfc2136_nameserver');
  const parsed = parseHostPort(raw.trim());
  if (!parsed.ok) return fail(ADDRESS.notHostPort(raw), ADDRESS.giveHostPortV4);
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
      const added = await sendUpdate({
        ...target,
        zone,
        record,
        value,
        action: 'add',
        key,
        timeoutMs,
        signal: run.signal,
        now: run.services.clock.now(),
      });
      if (added.tsigError !== 'NOERROR') return keyFailure(added.tsigError, where, facts);
      if (added.rcode === 'NOTAUTH' || added.rcode === 'NOTZONE') {
        tried.push(zone);
        continue;
      }
      facts.zone = zone;
      facts.rcode = added.rcode;
      if (added.rcode === 'REFUSED') {
        return fail(UPDATE.refused(where, zone, key.name), UPDATE.allowKey(key.name, zone), facts);
      }
      if (added.rcode !== 'NOERROR') {
        return fail(UPDATE.answered(where, added.rcode, zone), UPDATE.readServerLog, facts);
      }
      const removed = await sendUpdate({
        ...target,
        zone,
        record,
        value,
        action: 'delete',
        key,
        timeoutMs,
        signal: run.signal,
        now: run.services.clock.now(),
      });
      if (removed.rcode !== 'NOERROR' || removed.tsigError !== 'NOERROR') {
        return fail(UPDATE.notDeleted(record, removed.rcode), UPDATE.deleteByHand(record), facts);
      }
      facts.probe = record;
      return { status: 'ok', message: UPDATE.accepted(where, key.name, record), facts };
    }
  } catch (error) {
    if (!(error instanceof DnsError)) throw error;
    return fail(ADDRESS.unreachable(error.message), ADDRESS.checkAddress(target.port), facts);
  }
  facts.tried = tried;
  return fail(UPDATE.notAuthoritative(where, domain), UPDATE.pointAtPrimary, facts);
}

function keyFailure(tsigError: string, where: string, facts: DnsFacts): CheckResult<DnsFacts> {
  facts.tsigError = tsigError;
  return fail(UPDATE.keyRefused(where, tsigError), UPDATE.keyAdvice[tsigError] ?? UPDATE.checkKey, facts);
}
