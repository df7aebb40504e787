/** The exporter's HTTP side: GET /metrics, /healthz and /checks from the last completed run. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LastRun } from './last-run.js';

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export interface ExporterServer {
  /** host:port actually bound (the port is chosen by the system for port 0). */
  address: string;
  close(): Promise<void>;
}

export interface HttpOptions {
  host: string;
  port: number;
  lastRun: LastRun;
  /** Runs finished so far, for /healthz. */
  runs(): number;
  /** Whether a run is under way, for /healthz. */
  running(): boolean;
}

export async function startHttpServer(options: HttpOptions): Promise<ExporterServer> {
  const server = createServer((req, res) => answer(req, res, options));
  server.keepAliveTimeout = 65_000; // longer than a scraper's idle connections, shorter than forever
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { address, port } = server.address() as AddressInfo; // a TCP listener's (a string only for a pipe)
  return {
    address: address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function answer(req: IncomingMessage, res: ServerResponse, options: HttpOptions): void {
  const path = new URL(req.url ?? '/', 'http://exporter').pathname;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return send(res, req, 405, 'text/plain; charset=utf-8', 'Only GET and HEAD are served.\n', { allow: 'GET, HEAD' });
  }
  const { lastRun } = options;
  switch (path) {
    case '/metrics':
      return send(res, req, 200, METRICS_CONTENT_TYPE, lastRun.metrics());
    case '/checks': {
      const checks = lastRun.checks();
      if (checks === undefined) {
        return send(
          res,
          req,
          503,
          'application/json',
          JSON.stringify({ error: 'No run has completed yet; try again shortly.' }) + '\n',
        );
      }
      return send(res, req, 200, 'application/json', checks);
    }
    case '/healthz': {
      const last = lastRun.finishedAt();
      const body = {
        status: 'ok',
        runs: options.runs(),
        running: options.running(),
        lastRunFinished: last ? last.toISOString() : null,
      };
      return send(res, req, 200, 'application/json', JSON.stringify(body) + '\n');
    }
    case '/':
      return send(res, req, 200, 'text/plain; charset=utf-8', 'cloudgate exporter: /metrics, /checks, /healthz\n');
    default:
      return send(
        res,
        req,
        404,
        'text/plain; charset=utf-8',
        'Not found: this exporter serves /metrics, /checks and /healthz.\n',
      );
  }
}

function send(
  res: ServerResponse,
  req: IncomingMessage,
  status: number,
  type: string,
  body: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': type,
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
