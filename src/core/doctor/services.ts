/**
 * What one run owns and hands to its checks, as flutter's doctor hands its validators a process
 * manager: the network settings, a clock, and the services made from them on first use (the HTTP
 * client, the trust store), all closed when the run ends. Nothing of a run stays in module state, so
 * `serve` keeps nothing from one run to the next and a test can give a run its own clock.
 */
import type { NetworkSettings } from '../config/network.js';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A service of the run, under a typed key; made by the module that owns it (net/http.ts makes the HTTP client). */
export interface ServiceKey<T> {
  readonly name: string;
  readonly type?: T;
}

export function serviceKey<T>(name: string): ServiceKey<T> {
  return { name };
}

export interface RunServices {
  /** How the run reaches servers: timeout, CA file, --insecure, --allow-http, --verbose. */
  readonly network: NetworkSettings;
  readonly clock: Clock;
  /** The run's one `key` service, made by `make` on first use; closed with the run when it has `close()`. */
  own<T extends object>(key: ServiceKey<T>, make: () => T): T;
  /** Closes every service the run made (idempotent). */
  close(): Promise<void>;
}

interface Closable {
  close(): Promise<void> | void;
}

function closable(service: object): service is Closable {
  return 'close' in service && typeof service.close === 'function';
}

export function openServices(network: NetworkSettings, options: { clock?: Clock } = {}): RunServices {
  const made = new Map<ServiceKey<unknown>, object>();
  return {
    network,
    clock: options.clock ?? systemClock,
    own<T extends object>(key: ServiceKey<T>, make: () => T): T {
      // Only this function stores under the key, a T made by `make`.
      const found = made.get(key) as T | undefined;
      if (found) return found;
      const service = make();
      made.set(key, service);
      return service;
    },
    async close() {
      const services = [...made.values()];
      made.clear();
      await Promise.allSettled(services.filter(closable).map(async (s) => s.close()));
    },
  };
}
