/**
 * Setup judges the file it writes as part of its inventory folder: a template naming a variable of
 * another file is rendered with it, one naming a variable defined nowhere is the role's stop (and
 * nothing is written), and a lone file's template is only a warning (another file may define it).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planSetup } from '../../../../src/core/setup/plan.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloudgate-plan-templates-'));
  await mkdir(join(dir, 'group_vars', 'all'), { recursive: true });
  await writeFile(join(dir, 'hosts.ini'), '[controllers]\nctl1\n');
  await writeFile(join(dir, 'group_vars', 'all', '00-site.yml'), 'acme_host: acme.internal.example.com\n');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const answers = (server: string) => ({
  cluster_issuer_type: 'acme',
  cluster_issuer_acme_email: 'pki@example.com',
  cluster_issuer_acme_server: server,
});
const rules = (findings: { rule: string; severity: string }[]) =>
  findings.filter((f) => f.severity !== 'info').map((f) => `${f.rule}:${f.severity}`);

describe('planSetup on a file of an inventory folder', () => {
  it("renders a template with another file's variable, and checks the result", async () => {
    const plan = await planSetup({
      answers: answers('https://{{ acme_host }}/directory'),
      inventoryPath: join(dir, 'group_vars', 'all', 'certificates.yml'),
    });
    expect(rules(plan.findings)).toEqual([]);
    const http = await planSetup({
      answers: answers('http://{{ acme_host }}/directory'),
      inventoryPath: join(dir, 'group_vars', 'all', 'certificates.yml'),
    });
    expect(rules(http.findings)).toContain('acme-server-https:error');
  });

  it("a template naming a variable defined nowhere is the role's stop: an error, nothing written", async () => {
    const plan = await planSetup({
      answers: answers('https://{{ acme_hostname }}/directory'),
      inventoryPath: join(dir, 'group_vars', 'all', 'certificates.yml'),
    });
    expect(rules(plan.findings)).toContain('template-undefined:error');
  });

  it('a lone file cannot know the rest of the inventory: the same template is a warning there', async () => {
    const plan = await planSetup({
      answers: answers('https://{{ acme_hostname }}/directory'),
      inventoryPath: join(dir, 'certificates.yml'),
    });
    expect(rules(plan.findings)).toContain('template-undefined:warning');
  });
});
