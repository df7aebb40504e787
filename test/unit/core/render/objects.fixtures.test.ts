/**
 * Every branch of what the platform renders, field by field: each fixture inventory
 * (test/fixtures/render/<branch>.yml) against the objects written by hand from the platform's rules
 * (<branch>.expected.yml, <branch>.helm.yml), compared exactly. Then the same inventory written in the
 * neutral aliases is read back as the platform's words, and with --names spec renders the same objects
 * under the neutral words.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { namesView } from '../../../../src/core/config/neutral-names.js';
import { parseInventory } from '../../../../src/core/inventory/inventory.js';
import { checkObjects } from '../../../../src/core/render/check.js';
import { renderPlatform } from '../../../../src/core/render/objects.js';

const DIR = new URL('../../../fixtures/render/', import.meta.url).pathname;
const BRANCHES = readdirSync(DIR)
  .filter((f) => f.endsWith('.yml') && !/\.(expected|helm)\.yml$/.test(f))
  .map((f) => f.slice(0, -4))
  .sort();

const inventory = (branch: string) => parseInventory(readFileSync(`${DIR}${branch}.yml`, 'utf8'), `${branch}.yml`);
const expectedObjects = (branch: string) =>
  parseAllDocuments(readFileSync(`${DIR}${branch}.expected.yml`, 'utf8')).map((d) => d.toJS() as unknown);
const expectedHelm = (branch: string) =>
  existsSync(`${DIR}${branch}.helm.yml`) ? (parse(readFileSync(`${DIR}${branch}.helm.yml`, 'utf8')) as unknown[]) : [];

/** The neutral alias of each of the platform's words (variable names, choosing values, object names), written out here from the spec. */
const ALIASES: Record<string, string> = {
  'cert-manager': 'certmgr',
  venafi: 'commercialca',
  azuredns: 'clouddnsa',
  route53: 'clouddnsb',
  cloudflare: 'dnsc',
  godaddy: 'dnsd',
  infoblox: 'dnse',
  kubernetes: 'clusteroidc',
};
const word = new RegExp(`(?<![A-Za-z0-9])(${Object.keys(ALIASES).join('|')})(?![A-Za-z0-9])`, 'g');
// cert-manager's own namespace and service account are never renamed.
const aliasWords = (text: string) => (text === 'cert-manager' ? text : text.replace(word, (w) => ALIASES[w]));

/** The inventory as written with the neutral aliases of the names and values. */
function inAliases(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => {
      const key = name
        .replace(/^openstack_helm_ingress_/, 'cloud_helm_ingress_')
        .replace(/^atmosphere_ingress_/, 'platform_ingress_')
        .replace(/_(venafi|azuredns|route53|cloudflare|godaddy|infoblox)_/, (_, w: string) => `_${ALIASES[w]}_`);
      const choosing = [
        'cluster_issuer_type',
        'cluster_issuer_acme_solver',
        'cluster_issuer_acme_route53_auth',
      ].includes(name);
      return [key, choosing && typeof value === 'string' ? aliasWords(value) : value];
    }),
  );
}

/** Every string of an object (but a Kubernetes kind or field) with the platform's words as their aliases. */
function aliased(value: unknown, key = ''): unknown {
  // `kubernetes` is an auth mode's word only (never in object names: kubernetes.io/tls stays).
  if (typeof value === 'string')
    return ['namespace', 'kind', 'apiVersion', 'type'].includes(key) ? value : aliasWords(value);
  if (Array.isArray(value)) return value.map((v) => aliased(v, key));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, aliased(v, k)]));
  return value;
}

describe('render fixtures: every branch of the platform', () => {
  it('covers each issuer, each solver, each route53 auth mode, both Venafi logins and wildcard auto', () => {
    expect(BRANCHES).toEqual([
      'acme-azuredns',
      'acme-cloudflare',
      'acme-godaddy',
      'acme-http01',
      'acme-http01-internal-server',
      'acme-infoblox',
      'acme-rfc2136',
      'acme-route53-ambient',
      'acme-route53-kubernetes',
      'acme-route53-static',
      'ca',
      'none',
      'self-signed',
      'venafi-password',
      'venafi-token',
      'wildcard-auto',
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

    it(`${branch}: in the neutral aliases, the platform's words are read back; with --names spec, the objects carry the neutral words`, () => {
      const written = inAliases(inventory(branch));
      const read = namesView(written, `${branch}.yml`);
      expect(read.meant).toEqual(inventory(branch));
      expect(read.naming.length).toBe(
        Object.keys(written).filter((k) => !(k in inventory(branch)) || written[k] !== inventory(branch)[k]).length,
      );
      const spec = namesView(written, `${branch}.yml`, 'spec');
      expect(spec.naming).toEqual([]);
      const rendered = renderPlatform(spec.values, 'spec');
      expect(rendered.objects.map((o) => o.object)).toEqual(aliased(expectedObjects(branch)));
      expect(rendered.helm).toEqual(aliased(expectedHelm(branch)));
    });
  }
});
