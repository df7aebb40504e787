/**
 * The files in templates/oidc/, filled with `{{name}}` placeholders. The package root is found by
 * walking up from this module, so the same code works from src/ (tests) and from the dist/ bundle; the
 * single executable carries them as its assets (scripts/build-exe.mjs).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { getAsset, isSea } from 'node:sea';
import { fileURLToPath } from 'node:url';

function templatesDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'templates', 'oidc');
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  throw new Error('templates/oidc/ was not found next to the cloudgate installation; reinstall cloudgate.');
}

function templateText(name: string): string {
  return isSea() ? getAsset(`templates/oidc/${name}`, 'utf8') : readFileSync(join(templatesDir(), name), 'utf8');
}

export function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => {
    if (!(name in values)) throw new Error(`template placeholder {{${name}}} has no value`);
    return values[name];
  });
}

/** A text template, filled. */
export function renderText(name: string, values: Record<string, string>): string {
  return fill(templateText(name), values);
}

/** A JSON template: placeholders are filled inside string values only, so a value can never break the JSON. */
export function renderJson(name: string, values: Record<string, string>): unknown {
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return fill(node, values);
    if (Array.isArray(node)) return node.map(walk);
    if (node && typeof node === 'object') {
      return Object.fromEntries(Object.entries(node).map(([k, v]) => [fill(k, values), walk(v)]));
    }
    return node;
  };
  return walk(JSON.parse(templateText(name)));
}
