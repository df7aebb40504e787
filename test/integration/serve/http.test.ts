import { afterEach, describe, expect, it } from 'vitest';
import { startHttpServer, type ExporterServer } from '../../../src/serve/http.js';
import { createLastRun } from '../../../src/serve/last-run.js';
import { fullReport } from '../../helpers/fixture-run.js';

let server: ExporterServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('exporter HTTP server', () => {
  it('serves the last completed run; before one, build info only and /checks 503', async () => {
    const lastRun = createLastRun('9.9.9', []);
    server = await startHttpServer({ host: '127.0.0.1', port: 0, lastRun, runs: () => 0, running: () => false });
    const base = `http://${server.address}`;

    const early = await fetch(`${base}/metrics`);
    expect(early.status).toBe(200);
    expect(early.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const earlyText = await early.text();
    expect(earlyText).toContain('cloudgate_build_info{version="9.9.9"} 1');
    expect(earlyText).not.toContain('cloudgate_check_status{');
    expect((await fetch(`${base}/checks`)).status).toBe(503);
    expect(await (await fetch(`${base}/healthz`)).json()).toMatchObject({ status: 'ok', lastRunFinished: null });

    lastRun.record(fullReport(), new Date('2026-01-01T00:00:00Z'));
    expect(await (await fetch(`${base}/metrics`)).text()).toContain(
      'cloudgate_check_status{group="signin",id="signin.api",status="ok"} 1',
    );
    const checks = await (await fetch(`${base}/checks`)).json();
    expect(checks.schema).toBe('cloudgate.doctor/v1');
    expect(checks.checks).toHaveLength(12);
    expect((await fetch(`${base}/healthz`, { method: 'HEAD' })).status).toBe(200);
    expect((await fetch(`${base}/nothing`)).status).toBe(404);
    expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(405);
  });

  it('a port in use is an error before anything is served', async () => {
    server = await startHttpServer({
      host: '127.0.0.1',
      port: 0,
      lastRun: createLastRun('1', []),
      runs: () => 0,
      running: () => false,
    });
    const port = Number(server.address.split(':').pop());
    await expect(
      startHttpServer({
        host: '127.0.0.1',
        port,
        lastRun: createLastRun('1', []),
        runs: () => 0,
        running: () => false,
      }),
    ).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
});
