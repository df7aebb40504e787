/**
 * What one check leaves for the checks that come after it (`needs`/`after`), under keys that carry
 * their value's type: no string spelled in two files, no cast where it is read.
 */
export interface StateKey<T> {
  readonly name: string;
  /** Only for the type: never set. */
  readonly type?: T;
}

export function stateKey<T>(name: string): StateKey<T> {
  return { name };
}

/** The run's shared state, read and written through typed keys. */
export interface CheckState {
  get<T>(key: StateKey<T>): T | undefined;
  set<T>(key: StateKey<T>, value: T): void;
}

export function checkState(): CheckState {
  const values = new Map<string, unknown>();
  return {
    // set() is the only writer, and it stores a T under the key's name.
    get: <T>(key: StateKey<T>) => values.get(key.name) as T | undefined,
    set: (key, value) => void values.set(key.name, value),
  };
}

/** One service of the scoped token's catalog, as the identity service returns it (unchecked). */
export interface CatalogService {
  name?: unknown;
  type?: unknown;
  endpoints?: { interface?: unknown; url?: unknown }[];
}

/** Left by `signin.scope` (the scoped token's catalog), read by the tls group's `tls.catalog`. */
export const SERVICE_CATALOG = stateKey<CatalogService[]>('signin.catalog');
