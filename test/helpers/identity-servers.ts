import { afterAll, afterEach, beforeAll } from 'vitest';
import { createHttpClient, type HttpClient } from '../../src/core/net/http.js';
import { trustStore } from '../../src/core/net/trust.js';
import { createTestCA, type TestCA } from './pki.js';
import { startIdentityServer, type IdentityServer, type IdentityServerOptions } from '../servers/identity.js';

export interface IdentityServers {
  ca: TestCA;
  /** Answers at the paths the platform's documents give (docs/signin.md, "The steps"). */
  spec: IdentityServer;
  /** Answers as real Keystone does (docs/signin.md, "Two spellings of two paths"). */
  keystone: IdentityServer;
}

/** Starts both test identity services (one CA) before the file's tests and stops them after. */
export function useIdentityServers(): IdentityServers {
  const servers = {} as IdentityServers;
  beforeAll(async () => {
    servers.ca = createTestCA();
    servers.spec = await startIdentityServer({ ca: servers.ca });
    servers.keystone = await startIdentityServer({ ca: servers.ca, mode: 'keystone' });
  });
  afterAll(async () => {
    await servers.spec?.close();
    await servers.keystone?.close();
  });
  return servers;
}

/**
 * Identity servers made per test (one CA for the file) and HTTP clients that trust it: servers stop
 * after the file's tests, clients after each test.
 */
export function useIdentityServerFactory() {
  let ca: TestCA;
  const servers: IdentityServer[] = [];
  const clients: HttpClient[] = [];
  beforeAll(() => {
    ca = createTestCA();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });
  return {
    get ca(): TestCA {
      return ca;
    },
    async server(options: Partial<IdentityServerOptions> = {}): Promise<IdentityServer> {
      const s = await startIdentityServer({ ca, ...options });
      servers.push(s);
      return s;
    },
    client(timeoutMs = 5000): HttpClient {
      const c = createHttpClient({ timeoutMs, trust: trustStore(ca.file) });
      clients.push(c);
      return c;
    },
  };
}
