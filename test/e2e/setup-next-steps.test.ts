/**
 * Every next step `cloudgate setup` prints is a command that works as printed: each is run as the
 * operator would paste it (cloudgate is the built binary on PATH) and must be accepted, not refused
 * as a usage error (exit 2). Lines starting with `#` are notes, not commands. Run `npm run build` first.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli } from '../helpers/cli.js';
import { launchCloudgate } from '../helpers/tmux.js';
import { createTestCA } from '../helpers/pki.js';
import { issuerUrlSteps } from '../../src/core/setup/outcome.js';
import { startOidcIssuer, type OidcIssuer } from '../servers/oidc-issuer.js';

let dir: string;
let bin: string;
let issuer: OidcIssuer;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cg-next-'));
  bin = join(dir, 'bin');
  mkdirSync(bin);
  // As npm link or npm install -g puts it on the PATH: a link to the program.
  symlinkSync(BIN, join(bin, 'cloudgate'));
  issuer = await startOidcIssuer();
});
afterAll(async () => {
  await issuer?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The environment of an operator with cloudgate on the PATH. */
const onPath = () => ({ PATH: `${bin}:${process.env.PATH}` });

/** The `Next:` lines of setup's output. */
function nextLines(output: string): string[] {
  const lines = output.split('\n');
  const at = lines.indexOf('Next:');
  expect(at, output).toBeGreaterThan(-1);
  return lines
    .slice(at + 1)
    .filter((l) => l.startsWith('  '))
    .map((l) => l.trim());
}

/** Runs a printed line in a shell, as pasted (without its trailing `# why`); resolves to its exit code. */
function runPrinted(line: string, env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; output: string }> {
  const command = line.replace(/\s+#\s.*$/, '');
  return new Promise((resolve) => {
    execFile(
      'sh',
      ['-c', command],
      {
        cwd: dir,
        timeout: 60_000,
        killSignal: 'SIGKILL',
        env: {
          ...process.env,
          CI: 'true',
          NO_COLOR: '1',
          PATH: `${bin}:${process.env.PATH}`,
          KUBECONFIG: join(dir, 'no-kubeconfig'),
          ...env,
        },
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, output: stdout + stderr }),
    );
  });
}

async function expectAccepted(lines: string[], env?: NodeJS.ProcessEnv): Promise<void> {
  for (const line of lines.filter((l) => !l.startsWith('#'))) {
    if (line.startsWith('cloudgate regenerate')) continue; // asks questions: tried on a terminal below
    const { code, output } = await runPrinted(line, env);
    expect([0, 1], `${line}\n${output}`).toContain(code);
  }
}

async function setup(
  name: string,
  answers: string,
  extra: string[] = [],
): Promise<{ inventory: string; next: string[] }> {
  const root = join(dir, name);
  mkdirSync(join(root, 'group_vars', 'all'), { recursive: true });
  const inventory = join(root, 'group_vars', 'all', 'certificates.yml');
  writeFileSync(join(root, 'answers.yml'), answers);
  const result = await runCli(['setup', '--answers', join(root, 'answers.yml'), '--inventory', inventory, ...extra], {
    cwd: dir,
    env: onPath(),
  });
  expect(result.code, result.stderr).toBe(0);
  return { inventory, next: nextLines(result.stdout + result.stderr) };
}

describe('the next steps setup prints', () => {
  it('a supplied wildcard: kubectl apply of the manifest, and the doctor checks the certificate, key and CA given', async () => {
    const ca = createTestCA('next steps CA');
    const leaf = ca.issue(['*.cloud.example.com']);
    writeFileSync(join(dir, 'chain.pem'), leaf.cert + ca.cert);
    writeFileSync(join(dir, 'wildcard.key'), leaf.key, { mode: 0o600 });
    writeFileSync(join(dir, 'ca.pem'), ca.cert);
    const { next } = await setup(
      'supplied',
      `openstack_helm_ingress_wildcard_domain: cloud.example.com\nwildcard_certificate_file: ${join(dir, 'chain.pem')}\nwildcard_key_file: ${join(dir, 'wildcard.key')}\n`,
      ['--ca-file', join(dir, 'ca.pem')],
    );
    expect(
      next.some((l) =>
        l.startsWith(`kubectl apply -f ${join(dir, 'supplied', 'manifests', 'wildcard-certs.secret.yaml')}`),
      ),
    ).toBe(true);
    const doctor = next.find((l) => l.startsWith('cloudgate doctor'))!;
    expect(doctor).toContain(`--certificate ${join(dir, 'chain.pem')} --key ${join(dir, 'wildcard.key')}`);
    expect(doctor).toContain(`--ca-file ${join(dir, 'ca.pem')}`);
    await expectAccepted(next);
  });

  it('an issuer change: the doctor and regenerate (which starts its questions on a terminal)', async () => {
    const { inventory } = await setup('change', 'cluster_issuer_type: self-signed\n');
    const ca = createTestCA('change CA');
    writeFileSync(join(dir, 'change', 'ca.crt'), ca.cert);
    writeFileSync(join(dir, 'change', 'ca.key'), ca.key, { mode: 0o600 });
    writeFileSync(
      join(dir, 'change', 'answers.yml'),
      'cluster_issuer_type: ca\ncluster_issuer_ca_certificate: file:ca.crt\ncluster_issuer_ca_private_key: file:ca.key\n',
    );
    const result = await runCli(['setup', '--answers', join(dir, 'change', 'answers.yml'), '--inventory', inventory], {
      cwd: dir,
      env: onPath(),
    });
    expect(result.code, result.stderr).toBe(0);
    const next = nextLines(result.stdout + result.stderr);
    const regenerate = next.find((l) => l.startsWith('cloudgate regenerate'))!;
    expect(regenerate).toContain(`--inventory ${inventory}`);
    await expectAccepted(next);
    const term = launchCloudgate(
      regenerate
        .replace(/\s+#\s.*$/, '')
        .split(/\s+/)
        .slice(1),
      { cwd: dir, size: { x: 120, y: 40 } },
    );
    try {
      await term.waitFor('Certificate issuer');
    } finally {
      term.kill();
    }
  });

  it('keyless route53: oidc needs the issuer URL, so it is a note until the operator gives it, then a command', async () => {
    const { inventory, next } = await setup(
      'keyless',
      [
        'cluster_issuer_type: acme',
        'cluster_issuer_acme_email: pki@example.com',
        'cluster_issuer_acme_solver: route53',
        'cluster_issuer_acme_route53_auth: kubernetes',
        'cluster_issuer_acme_route53_region: eu-west-1',
        'cluster_issuer_acme_route53_hosted_zone_id: Z1',
        'cluster_issuer_acme_route53_role_arn: arn:aws:iam::123456789012:role/dns',
        '',
      ].join('\n'),
    );
    expect(next.find((l) => l.includes('cloudgate oidc'))).toMatch(/^# cloudgate oidc/);
    await expectAccepted(next);
    const withUrl = issuerUrlSteps({ inventoryPath: inventory }, issuer.url);
    expect(withUrl[0]).toContain(`--issuer-url ${issuer.url}`);
    await expectAccepted(withUrl, { NODE_EXTRA_CA_CERTS: issuer.caFile, OS_CACERT: issuer.caFile });
  });

  it('without cloudgate on the PATH (a checkout run through npm run setup), each step names the program by its path, and works as printed', async () => {
    const root = join(dir, 'no-path');
    mkdirSync(join(root, 'group_vars', 'all'), { recursive: true });
    const inventory = join(root, 'group_vars', 'all', 'certificates.yml');
    writeFileSync(join(root, 'answers.yml'), 'cluster_issuer_type: self-signed\n');
    const result = await runCli(['setup', '--answers', join(root, 'answers.yml'), '--inventory', inventory], {
      cwd: dir,
      env: { PATH: process.env.PATH },
      asProgram: true,
    });
    expect(result.code, result.stderr).toBe(0);
    const next = nextLines(result.stdout + result.stderr);
    const doctor = next.find((l) => l.includes(' doctor '))!;
    expect(doctor.startsWith(`${BIN} doctor --inventory`), doctor).toBe(true);
    for (const line of next.filter((l) => !l.startsWith('#'))) {
      const { code, output } = await runPrinted(line, { PATH: `${dirname(process.execPath)}:/usr/bin:/bin` });
      expect([0, 1], `${line}\n${output}`).toContain(code);
    }
  });
});
