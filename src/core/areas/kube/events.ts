/**
 * The events cert-manager sent about an object, read from the run's one list of events (read only when
 * some Certificate is not Ready or is being issued). Events last an hour in the API server: what they say
 * completes the objects' conditions, it never replaces them.
 */
import { escapeLine } from '../../escape.js';
import type { CmObject } from '../../kube/objects.js';
import { memberOf, textOf } from '../../records.js';

export interface EventLine {
  type: string;
  reason: string;
  message: string;
  /** When it last happened (ISO 8601), when known. */
  at?: string;
  count?: number;
}

const timeOf = (e: CmObject) =>
  textOf(e.lastTimestamp) ??
  textOf(e.eventTime) ??
  textOf(memberOf(e.series, 'lastObservedTime')) ??
  e.metadata?.creationTimestamp;

/** The events about `object` (kind, namespace and name; its uid when both have one), newest first. */
export function eventsOf(events: readonly CmObject[], object: CmObject): EventLine[] {
  const kind = object.kind;
  const ns = object.metadata?.namespace ?? '';
  const name = object.metadata?.name;
  const uid = object.metadata?.uid;
  return events
    .filter((e) => {
      const about = e.involvedObject ?? e.regarding;
      const theirUid = textOf(memberOf(about, 'uid'));
      return (
        textOf(memberOf(about, 'kind')) === kind &&
        textOf(memberOf(about, 'name')) === name &&
        (textOf(memberOf(about, 'namespace')) ?? '') === ns &&
        (!uid || !theirUid || uid === theirUid)
      );
    })
    .map((e) => ({ e, at: timeOf(e) }))
    .sort((a, b) => (Date.parse(b.at ?? '') || 0) - (Date.parse(a.at ?? '') || 0))
    .map(({ e, at }) => ({
      type: textOf(e.type) ?? '',
      reason: textOf(e.reason) ?? '',
      message: textOf(e.message) ?? textOf(e.note) ?? '',
      ...(at ? { at } : {}),
      ...(typeof e.count === 'number' ? { count: e.count } : {}),
    }));
}

/** The newest event about `object`, of `type` (Warning, Normal) and `reason` when given. */
export function latestEvent(
  events: readonly CmObject[],
  object: CmObject,
  type?: string,
  reason?: string,
): EventLine | undefined {
  return eventsOf(events, object).find((e) => (!type || e.type === type) && (!reason || e.reason === reason));
}

/** The latest events of an object, newest first, as `Type Reason: message` lines (escaped). */
export function recentEvents(events: readonly CmObject[], object: CmObject, limit = 3): string[] {
  return eventsOf(events, object)
    .slice(0, limit)
    .map((e) => escapeLine(`${e.type} ${e.reason}: ${e.message}`.trim()));
}
