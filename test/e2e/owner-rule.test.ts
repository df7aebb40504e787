/**
 * The ownership rule through the built CLI, as root against another real user (nobody, through
 * setpriv) who prepares files in a shared sticky folder, as on a deployment host's /tmp:
 * - setup writes no inventory into an empty file they pre-created, and no manifest into a folder they
 *   made; doctor --output and oidc --out write into no folder of theirs (unless the operator trusts it);
 * - a vault password script of theirs is never run (the script records whether it ran);
 * - OS_CLOUD in their working folder does not read their clouds.yaml: root's client secret and token
 *   never reach the server it names.
 * Run `npm run build` first; runs as root.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { asNobody, NOBODY, sharedFixture, type SharedFixture } from '../helpers/other-user.js';
import { createTestCA } from '../helpers/pki.js';

let fx: SharedFixture;
beforeEach(() => {
  fx = sharedFixture('cg-e2e-owners-');
});
afterEach(() => fx.cleanup());

function answers(text = 'cluster_issuer_type: self-signed\n'): string {
  const file = join(fx.dir, 'answers.yml');
  writeFileSync(file, text);
  return file;
}

describe('setup', () => {
  it("does not write the inventory into an empty file another user pre-created: exit 1, their file untouched, nothing of root's left", async () => {
    asNobody(`touch ${fx.shared}/certificates.yml`);
    const inventory = join(fx.shared, 'certificates.yml');
    const r = await runCli(['setup', '--answers', answers(), '--inventory', inventory, '--yes'], { cwd: fx.dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`the file ${inventory} belongs to uid ${NOBODY} (nobody)`);
    expect(statSync(inventory)).toMatchObject({ size: 0, uid: NOBODY });
    expect(readdirSync(fx.shared)).toEqual(['certificates.yml']);
  });

  it('does not write into a folder another user made in the sticky folder, and says so before the review asks anything', async () => {
    asNobody(`mkdir -m 755 ${fx.shared}/inventory`);
    const inventory = join(fx.shared, 'inventory', 'certificates.yml');
    const r = await runCli(['setup', '--answers', answers(), '--inventory', inventory, '--dry-run'], { cwd: fx.dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`the folder ${fx.shared}/inventory belongs to uid ${NOBODY} (nobody)`);
    expect(r.stderr).toMatch(/folder of your own/);
    expect(readdirSync(join(fx.shared, 'inventory'))).toEqual([]);
  });

  it('does not write the TLS Secret manifest (the private key) through the link in a folder another user made; nothing written', async () => {
    const victim = join(fx.dir, 'root-only.key');
    writeFileSync(victim, 'root: only\n', { mode: 0o600 });
    asNobody(`mkdir -m 755 ${fx.shared}/manifests && ln -s ${victim} ${fx.shared}/manifests/wildcard.secret.yaml`);
    const ca = createTestCA('manifest CA');
    const leaf = ca.issue(['*.cloud.example.com']);
    writeFileSync(join(fx.dir, 'wildcard.pem'), leaf.cert + ca.cert);
    writeFileSync(join(fx.dir, 'wildcard.key'), leaf.key, { mode: 0o600 });
    const inventory = join(fx.dir, 'certificates.yml');
    const file = answers(
      'cloud_helm_ingress_wildcard_domain: cloud.example.com\nwildcard_certificate_file: wildcard.pem\nwildcard_key_file: wildcard.key\n',
    );
    const r = await runCli(
      [
        'setup',
        '--answers',
        file,
        '--inventory',
        inventory,
        '--secret-manifest',
        join(fx.shared, 'manifests', 'wildcard.secret.yaml'),
        '--yes',
      ],
      { cwd: fx.dir },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`the folder ${fx.shared}/manifests belongs to uid ${NOBODY} (nobody)`);
    expect(readFileSync(victim, 'utf8')).toBe('root: only\n');
    expect(statSync(victim).mode & 0o777).toBe(0o600);
    expect(existsSync(inventory)).toBe(false);
    expect(r.stderr).not.toContain(leaf.key.split('\n')[1]);
  });

  it('never runs a vault password script another user owns, as root', async () => {
    const marker = join(fx.dir, 'ran');
    const script = join(fx.shared, 'vault-pass.sh');
    asNobody(`printf '#!/bin/sh\\ntouch ${marker}\\necho hunter2\\n' > ${script} && chmod 755 ${script}`);
    const r = await runCli(
      [
        'setup',
        '--answers',
        answers(),
        '--inventory',
        join(fx.dir, 'certificates.yml'),
        '--yes',
        '--vault-password-file',
        script,
      ],
      { cwd: fx.dir },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`Refused to run ${script}: the file ${script} belongs to uid ${NOBODY} (nobody)`);
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(join(fx.dir, 'certificates.yml'))).toBe(false);
  });
});

describe('doctor --output and oidc --out', () => {
  it("refuse a folder another user owns (the node exporter's user, say), and write there once the operator trusts it", async () => {
    const inventory = join(fx.dir, 'certs.yml');
    writeFileSync(inventory, 'cluster_issuer_type: self-signed\n');
    asNobody(`mkdir -m 755 ${fx.shared}/textfile`);
    const output = join(fx.shared, 'textfile', 'cloudgate.prom');
    const doctor = (env: NodeJS.ProcessEnv = {}) =>
      runCli(
        ['doctor', '--only', 'inventory', '--inventory', inventory, '--format', 'prometheus', '--output', output],
        { env },
      );
    const refused = await doctor();
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`the folder ${fx.shared}/textfile belongs to uid ${NOBODY}`);
    expect(refused.stderr).toContain('CLOUDGATE_TRUSTED_FOLDERS');
    expect(existsSync(output)).toBe(false);

    const trusted = await doctor({ CLOUDGATE_TRUSTED_FOLDERS: join(fx.shared, 'textfile') });
    expect(trusted.code).toBe(0);
    expect(statSync(output).uid).toBe(0);
    expect(readFileSync(output, 'utf8')).toContain('cloudgate_check_status');
  });

  it('oidc --out refuses a folder of another user', async () => {
    asNobody(`mkdir -m 755 ${fx.shared}/oidc`);
    const r = await runCli(
      [
        'oidc',
        '--issuer-url',
        'https://oidc.example.com',
        '--out',
        join(fx.shared, 'oidc'),
        '--account',
        '123456789012',
        '--thumbprint',
        'a'.repeat(40),
      ],
      { cwd: fx.dir },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`the folder ${fx.shared}/oidc belongs to uid ${NOBODY}`);
    expect(readdirSync(join(fx.shared, 'oidc'))).toEqual([]);
  });
});

describe('OS_CLOUD in a working folder another user can write', () => {
  let server: Server;
  let requests: string[];
  beforeEach(async () => {
    requests = [];
    const ca = createTestCA('planted CA');
    const leaf = ca.issue(['127.0.0.1'], { cn: '127.0.0.1' });
    server = createServer({ cert: leaf.cert, key: leaf.key }, (req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        requests.push(`${req.method} ${req.url} ${body}`);
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"invalid_client"}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    writeFileSync(join(fx.dir, 'planted-ca.pem'), ca.cert);
  });
  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("refuses the clouds.yaml they planted (exit 2, naming it and its owner): root's secret and token reach no server", async () => {
    const port = (server.address() as AddressInfo).port;
    const home = join(fx.dir, 'home');
    mkdirSync(join(home, '.config', 'openstack'), { recursive: true });
    writeFileSync(
      join(home, '.config', 'openstack', 'secure.yaml'),
      'clouds:\n  prod:\n    auth:\n      client_secret: root-client-secret-4417\n',
      { mode: 0o600 },
    );
    const planted = [
      'clouds:',
      '  prod:',
      '    auth_type: v3oidcclientcredentials',
      '    auth:',
      `      auth_url: https://127.0.0.1:${port}/v3`,
      '      identity_provider: idp',
      '      protocol: openid',
      '      project_name: demo',
      '      client_id: cloud',
      `      access_token_endpoint: https://127.0.0.1:${port}/realms/cloud/protocol/openid-connect/token`,
      `    cacert: ${fx.shared}/ca.pem`,
      '',
    ].join('\n');
    asNobody(
      `cp ${fx.dir}/planted-ca.pem ${fx.shared}/ca.pem && cat > ${fx.shared}/clouds.yaml <<'EOF'\n${planted}EOF`,
    );

    const r = await runCli(['doctor', '--only', 'signin'], {
      cwd: fx.shared,
      env: { HOME: home, OS_CLOUD: 'prod', CLOUDGATE_SUBJECT_TOKEN: 'root-idp-token-8812', XDG_CONFIG_HOME: '' },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`the file ${fx.shared}/clouds.yaml belongs to uid ${NOBODY} (nobody)`);
    expect(r.stderr).toContain('OS_CLIENT_CONFIG_FILE');
    expect(requests).toEqual([]);
    expect(r.stdout + r.stderr).not.toMatch(/root-client-secret-4417|root-idp-token-8812/);
  });
});
