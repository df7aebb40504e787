/**
 * A cluster's public OIDC issuer on 127.0.0.1: the discovery document and key set exactly as
 * Kubernetes serves them, over HTTPS with a test CA, plus switches for every broken variant the
 * discovery checks must recognise.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createTestCA, type TestCA } from '../helpers/pki.js';
import { createSigningKey, type SigningKey } from './jwt.js';

export interface OidcIssuerOptions {
  /** Path of the issuer under the host (default `/cluster1`). */
  path?: string;
  /** Plain http instead of https. */
  http?: boolean;
  /** Serve a certificate from a CA the caller is not given (default: trusted through `caFile`). */
  untrusted?: boolean;
  /** Rewrites the published `issuer` from the real issuer URL (e.g. add a trailing slash). */
  issuer?: (url: string) => string;
  /** Rewrites the published `jwks_uri` from the correct one. */
  jwksUri?: (correct: string) => string;
  /** Replaces the served key set bytes. */
  jwksBody?: string;
  jwksContentType?: string;
  /** Status for both documents (401/403 as with the default RBAC). */
  status?: number;
  keys?: SigningKey[];
}

export interface OidcIssuer {
  /** The issuer URL, e.g. https://127.0.0.1:40123/cluster1 */
  url: string;
  ca: TestCA;
  /** CA file that makes the served certificate trusted (for --ca-file). */
  caFile: string;
  keys: SigningKey[];
  /** Authorization header of each request (must stay empty: discovery is anonymous). */
  requests: { path: string; authorization?: string }[];
  stop(): Promise<void>;
}

export async function startOidcIssuer(options: OidcIssuerOptions = {}): Promise<OidcIssuer> {
  const path = options.path ?? '/cluster1';
  const keys = options.keys ?? [createSigningKey('RS256')];
  const ca = createTestCA('oidc issuer test CA');
  const served = options.untrusted ? createTestCA('unknown CA') : ca;
  const leaf = served.issue(['127.0.0.1', 'localhost']);
  const requests: OidcIssuer['requests'] = [];
  let url = '';

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    requests.push({ path: req.url ?? '', authorization: req.headers.authorization });
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'content-type': type });
      res.end(body);
    };
    if (options.status)
      return send(
        options.status,
        'application/json',
        JSON.stringify({ kind: 'Status', code: options.status, message: 'forbidden' }),
      );
    const correctJwks = `${url}/openid/v1/jwks`;
    if (req.url === `${path}/.well-known/openid-configuration`) {
      return send(
        200,
        'application/json',
        JSON.stringify({
          issuer: options.issuer ? options.issuer(url) : url,
          jwks_uri: options.jwksUri ? options.jwksUri(correctJwks) : correctJwks,
          response_types_supported: ['id_token'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: [...new Set(keys.map((k) => k.alg))],
        }),
      );
    }
    if (req.url === `${path}/openid/v1/jwks`) {
      return send(
        200,
        options.jwksContentType ?? 'application/jwk-set+json',
        options.jwksBody ?? JSON.stringify({ keys: keys.map((k) => k.jwk) }),
      );
    }
    send(404, 'text/plain', '404 page not found');
  };

  // The served chain is leaf + CA certificate, so "the top certificate" is not the leaf.
  const server = options.http
    ? createHttpServer(handler)
    : createHttpsServer({ cert: leaf.cert + served.cert, key: leaf.key }, handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  url = `${options.http ? 'http' : 'https'}://127.0.0.1:${port}${path}`;
  return {
    url,
    ca,
    caFile: ca.file,
    keys,
    requests,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
