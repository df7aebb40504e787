import { afterAll, beforeAll } from 'vitest';
import { createTestCA, type TestCA } from './pki.js';
import { startIdentityServer, type IdentityServer } from '../servers/identity.js';

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
