/**
 * What one check hands on to the checks after it, under typed keys: a check declares the keys it
 * `provides`, `needs` and `uses`, and reads or writes no other. The runner orders the checks by them
 * and decides, from them, which checks cannot run and why; no check reads another's result.
 */
import type { SkipReason } from './types.js';

export interface FactKey<T> {
  /** The group whose checks hand it on. */
  readonly group: string;
  /** What it is, in words: "the broker token", "the service catalog". */
  readonly name: string;
  /**
   * Why a check that needs it does not run when the check that hands it on ended ok or warn without it
   * (signin.projects listed the projects but could choose none); `needs-failed` otherwise.
   */
  readonly unset?: SkipReason;
  /** Why a check that needs it does not run when its group is not part of the run (default: add the group to --only). */
  readonly absent?: SkipReason;
  /** Only for the type: never set. */
  readonly type?: T;
}

export function factKey<T>(
  group: string,
  name: string,
  options: { unset?: SkipReason; absent?: SkipReason } = {},
): FactKey<T> {
  return { group, name, ...options };
}

/** A check's view of the run's facts: only the keys it declared. */
export interface Facts {
  /** A fact of `uses` or `needs`; undefined when nothing handed it on. */
  get<T>(key: FactKey<T>): T | undefined;
  /** A fact of `needs`: the runner ran this check only because it was handed on. */
  need<T>(key: FactKey<T>): T;
  /** Hands on a fact of `provides`. */
  set<T>(key: FactKey<T>, value: T): void;
}

/** A key asked of a check that did not declare it: a mistake in cloudgate's code. */
export class UndeclaredFact extends Error {
  constructor(check: string, key: FactKey<unknown>, how: 'read' | 'written') {
    super(
      `Check ${check} ${how === 'read' ? 'reads' : 'writes'} ${key.name} (group ${key.group}) without declaring it.`,
    );
    this.name = 'UndeclaredFact';
  }
}

/** Every fact of one run, by key (the key object itself: two keys never collide, whatever their names). */
export class RunFacts {
  readonly #values = new Map<FactKey<unknown>, unknown>();

  has(key: FactKey<unknown>): boolean {
    return this.#values.has(key);
  }

  /** The view of one check, limited to what it declared. */
  viewFor(check: {
    id: string;
    needs?: readonly FactKey<unknown>[];
    uses?: readonly FactKey<unknown>[];
    provides?: readonly FactKey<unknown>[];
  }): Facts {
    const readable = new Set([...(check.needs ?? []), ...(check.uses ?? []), ...(check.provides ?? [])]);
    const writable = new Set(check.provides ?? []);
    const values = this.#values;
    const read = <T>(key: FactKey<T>): T | undefined => {
      if (!readable.has(key)) throw new UndeclaredFact(check.id, key, 'read');
      // set() is the only writer, and it stores a T under its key.
      return values.get(key) as T | undefined;
    };
    return {
      get: read,
      need<T>(key: FactKey<T>): T {
        const value = read(key);
        if (value === undefined) throw new Error(`Check ${check.id} ran without ${key.name}, which it needs.`);
        return value;
      },
      set<T>(key: FactKey<T>, value: T) {
        if (!writable.has(key)) throw new UndeclaredFact(check.id, key, 'written');
        values.set(key, value);
      },
    };
  }
}

/** A cache the checks of one run share (one kubectl availability per context), under a typed key. */
export interface MemoKey<T> {
  readonly name: string;
  readonly type?: T;
}

export function memoKey<T>(name: string): MemoKey<T> {
  return { name };
}

export interface RunMemo {
  /** The value under `key`, made by `make` the first time it is asked for in the run. */
  get<T>(key: MemoKey<T>, make: () => T): T;
}

export function runMemo(): RunMemo {
  const values = new Map<MemoKey<unknown>, unknown>();
  return {
    get<T>(key: MemoKey<T>, make: () => T): T {
      // Only this function stores under the key, a T made by `make`.
      if (values.has(key)) return values.get(key) as T;
      const value = make();
      values.set(key, value);
      return value;
    },
  };
}

/** One service of the scoped token's catalog, as the identity service returns it (unchecked). */
export interface CatalogService {
  name?: unknown;
  type?: unknown;
  endpoints?: { interface?: unknown; url?: unknown }[];
}

/** The scoped token's service catalog: handed on by the sign-in chain, read by the tls group's `tls.catalog`. */
export const SERVICE_CATALOG = factKey<CatalogService[]>('signin', 'the service catalog', {
  absent: {
    code: 'not-configured',
    text: 'Give --endpoint HOST[:PORT] or "tls: { endpoints: [...] }" in --config, or run the signin group too (--only signin,tls) so that its catalog is used.',
  },
});
