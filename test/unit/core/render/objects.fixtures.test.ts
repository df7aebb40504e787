/**
 * Every branch of what the platform renders, field by field: each fixture inventory
 * (test/fixtures/render/<branch>.yml) against the objects written by hand from the platform's rules
 * (<branch>.expected.yml, <branch>.helm.yml), compared exactly. Then the same inventory in the
 * platform's own variable names renders the same objects, apart from the naming words.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { neutralView } from '../../../../src/core/config/platform-names.js';
import { parseInventory } from '../../../../src/core/inventory/inventory.js';
import { checkObjects } from '../../../../src/core/render/check.js';
import { renderPlatform } from '../../../../src/core/render/objects.js';

const DIR = new URL('../../../fixtures/render/', import.meta.url).pathname;
const BRANCHES = readdirSync(DIR).filter((f) => f.endsWith('.yml') && !/\.(expected|helm)\.yml$/.test(f)).map((f) => f.slice(0, -4)).sort();

const inventory = (branch: string) => parseInventory(readFileSync(`${DIR}${branch}.yml`, 'utf8'), `${branch}.yml`);
const expectedObjects = (branch: string) => parseAllDocuments(readFileSync(`${DIR}${branch}.expected.yml`, 'utf8')).map((d) => d.toJS() as unknown);
const expectedHelm = (branch: string) => (existsSync(`${DIR}${branch}.helm.yml`) ? parse(readFileSync(`${DIR}${branch}.helm.yml`, 'utf8')) as unknown[] : []);

/** The platform's word for each neutral naming word (variable names, choosing values, object names). */
const WORDS: Record<string, string> = {
  certmgr: 'cert-manager', commercialca: 'venafi', clouddnsa: 'azuredns', clouddnsb: 'route53',
  dnsc: 'cloudflare', dnsd: 'godaddy', dnse: 'infoblox', clusteroidc: 'kubernetes',
};
const word = new RegExp(`(?<![A-Za-z0-9])(${Object.keys(WORDS).join('|')})(?![A-Za-z0-9])`, 'g');
const platformWords = (text: string) => text.replace(word, (w) => WORDS[w]);

/** The inventory as written with the platform's variable names and values. */
function inPlatformNames(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).map(([name, value]) => {
    const key = name.replace(/^cloud_helm_ingress_/, 'openstack_helm_ingress_').replace(/_(commercialca|clouddnsa|clouddnsb|dnsc|dnsd|dnse)_/, (_, w: string) => `_${WORDS[w]}_`);
    const choosing = ['cluster_issuer_type', 'cluster_issuer_acme_solver', 'cluster_issuer_acme_clouddnsb_auth'].includes(name);
    return [key, choosing && typeof value === 'string' ? platformWords(value) : value];
  }));
}

/** Every string of an object with the naming words translated (the fixtures' values hold none). */
function renamed(value: unknown): unknown {
  if (typeof value === 'string') return platformWords(value);
  if (Array.isArray(value)) return value.map(renamed);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renamed(v)]));
  return value;
}

describe('render fixtures: every branch of the platform', () => {
  it('covers each issuer, each solver, each clouddnsb auth mode, both commercial CA logins and wildcard auto', () => {
    expect(BRANCHES).toEqual([
      'acme-clouddnsa', 'acme-clouddnsb-ambient', 'acme-clouddnsb-clusteroidc', 'acme-clouddnsb-static', 'acme-dnsc', 'acme-dnsd', 'acme-dnse',
      'acme-http01', 'acme-http01-internal-server', 'acme-rfc2136', 'ca', 'commercialca-password', 'commercialca-token', 'none', 'self-signed', 'wildcard-auto',
    ]);
  });

  for (const branch of BRANCHES) {
    it(`${branch}: exactly the platform's objects, in its order, accepted by cert-manager's schemas and Kubernetes`, () => {
      const rendered = renderPlatform(inventory(branch));
      expect(rendered.objects.map((o) => o.object)).toEqual(expectedObjects(branch));
      expect(rendered.helm).toEqual(expectedHelm(branch));
      expect(rendered.findings).toEqual([]);
      expect(checkObjects(rendered.objects)).toEqual([]);
    });

    it(`${branch}: the platform's variable names render the same objects under the platform's naming words`, () => {
      const spec = renderPlatform(inventory(branch), 'spec');
      const view = neutralView(inPlatformNames(inventory(branch)), `${branch}.yml`, 'platform');
      const platform = renderPlatform(view.values, view.profile);
      expect(platform.objects.map((o) => o.object)).toEqual(renamed(spec.objects.map((o) => o.object)));
      expect(platform.helm).toEqual(renamed(spec.helm));
      expect(platform.objects.map((o) => o.from)).toEqual(spec.objects.map((o) => o.from));
    });
  }
});
