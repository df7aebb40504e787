/** Real TLS servers on 127.0.0.1 for a test file: one test PKI, every server stopped after the file. */
import { afterAll, beforeAll } from 'vitest';
import {
  createPki,
  startTlsEndpoint,
  type EndpointSpec,
  type Pki,
  type RunningEndpoint,
} from '../servers/tls-endpoints.js';

export function useTlsEndpoints(): { readonly pki: Pki; start(spec: EndpointSpec): Promise<RunningEndpoint> } {
  let pki: Pki;
  const started: RunningEndpoint[] = [];
  beforeAll(() => {
    pki = createPki();
  });
  afterAll(async () => {
    await Promise.all(started.map((e) => e.stop()));
  });
  return {
    get pki() {
      return pki;
    },
    async start(spec) {
      const e = await startTlsEndpoint(spec);
      started.push(e);
      return e;
    },
  };
}
