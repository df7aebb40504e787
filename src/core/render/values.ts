/**
 * The values the platform's role sees, with Ansible's rules: a variable the inventory defines is used as
 * written, even `""` or `null` (only an absent one takes the role's default); a `{{ }}` value is a
 * template, resolved here only when it names one other variable and otherwise shown as unknown; a
 * vaulted value is known only at deploy time. Each read that changes what the role renders (an empty
 * value, a template, an undefined variable the role needs) leaves a finding with the fix.
 */
import { isJinja, isTagged, isVaulted } from '../inventory/ansible-tagged.js';
import { platformName } from '../config/neutral-names.js';
import { defaultOf, variable } from '../config/variables.js';
import type { NamingProfile } from './names.js';
import type { KubeObject, Rendered, RenderFinding, RenderedObject } from './types.js';

type Values = Record<string, unknown>;

/** Shown for a vaulted value: Ansible decrypts it only at deploy time. */
export const VAULTED_VALUE = '(vaulted: decrypted at deploy time)';
const TEMPLATE_END = ': resolved at deploy time)';
/** Shown for a template cloudgate cannot resolve from the inventory. */
export const templateValue = (template: string) => `(template ${template.trim()}${TEMPLATE_END}`;

/** Whether a rendered value stands for something known only when the deployment runs. */
export function isUnknownValue(value: unknown): boolean {
  return typeof value === 'string' && (value.includes(VAULTED_VALUE) || (value.startsWith('(template ') && value.endsWith(TEMPLATE_END)));
}

const SINGLE_REFERENCE = /^\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$/;

export class RoleValues {
  private readonly reported = new Set<string>();

  constructor(readonly values: Values, readonly profile: NamingProfile, readonly out: Rendered) {}

  /** `X is defined`: the inventory has the key, whatever its value (`""` and `null` included). */
  defined(name: string): boolean {
    // `undefined` comes from no YAML: a key set to it is a key left out.
    return Object.prototype.hasOwnProperty.call(this.values, name) && this.values[name] !== undefined;
  }

  /**
   * The value the role's template gets for a variable (a whole `"{{ x }}"` keeps its type: a number stays
   * a number, `null` stays null); undefined: neither the inventory nor the role's defaults define it.
   */
  value(name: string, depth = 0): unknown {
    if (this.defined(name)) return this.resolve(name, this.values[name], depth);
    const row = variable(name);
    if (!row) return undefined;
    if (row.defaultFrom) return this.value(row.defaultFrom, depth + 1);
    return defaultOf(row, this.profile) ?? row.roleDefault;
  }

  /** The variable that gives a value: itself when defined, else the one its default follows (defaultFrom). */
  source(name: string): string {
    const from = variable(name)?.defaultFrom;
    return this.defined(name) || !from ? name : this.source(from);
  }

  /** The value inside a longer string (`"{{ a }}:{{ b }}"`): null becomes the empty string there. */
  text(name: string): string {
    const v = this.value(name);
    return v === null || v === undefined ? '' : String(v);
  }

  /** A variable the role uses without a default: undefined stops the deployment. */
  needed(name: string, what: string): unknown {
    const v = this.value(name);
    if (v === undefined) {
      this.finding(name, 'error', `${name} is not set, but the platform needs it for ${what}: the deployment would stop with "undefined variable".`, `Set ${name} in the inventory.`);
      return '';
    }
    this.emptiness(name, v, what, 'error');
    return v;
  }

  /** A variable with a default in the role; an empty or null value replaces that default. */
  optional(name: string, what: string, severity: RenderFinding['severity'] = 'warning'): unknown {
    const v = this.value(name);
    this.emptiness(name, v, what, severity);
    return v;
  }

  /** The name of an object: empty or null, the API server refuses the object. */
  name(name: string, what: string): string {
    const v = this.value(name);
    this.emptiness(name, v, `the name of ${what} (the API server refuses an object without a name)`, 'error');
    return v === null || v === undefined ? '' : String(v);
  }

  finding(variable: string, severity: RenderFinding['severity'], message: string, advice?: string): void {
    const key = `${variable} ${message}`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.out.findings.push({ variable, severity, message, ...(advice ? { advice } : {}) });
  }

  add(object: KubeObject, from: string[], extra: Partial<RenderedObject> = {}): void {
    this.out.objects.push({ object, from, ...extra });
  }

  private emptiness(name: string, v: unknown, what: string, severity: RenderFinding['severity']): void {
    if (!this.defined(name) || (v !== '' && v !== null)) return;
    const row = variable(name);
    const own = row ? defaultOf(row, this.profile) ?? row.roleDefault : undefined;
    const fallback = row?.defaultFrom ? `the value of ${row.defaultFrom}` : own !== undefined ? String(own) : undefined;
    const written = v === null ? 'null (a key with no value)' : 'empty';
    this.finding(name, severity,
      `${name} is ${written}: Ansible counts it as defined, so ${fallback !== undefined ? `the role's default (${fallback}) does not apply and ` : ''}the role passes ${v === null ? 'null' : '""'} as ${what}.`,
      fallback !== undefined ? `Give ${name} a value, or remove the line to use ${fallback}.` : `Give ${name} a value.`);
  }

  private resolve(name: string, v: unknown, depth: number): unknown {
    if (isVaulted(v)) return VAULTED_VALUE;
    if (isTagged(v)) return v.text;
    if (typeof v !== 'string' || !isJinja(v)) return v;
    const ref = SINGLE_REFERENCE.exec(v.trim());
    if (ref && depth < 8) {
      const target = platformName(ref[1]);
      if (target !== name && (this.defined(target) || variable(target))) {
        const resolved = this.value(target, depth + 1);
        if (resolved !== undefined) return resolved;
      }
    }
    this.finding(name, 'info', `${name} is a template (${v.trim()}): Ansible resolves it when the deployment runs, so cloudgate shows it as unknown and does not check it.`,
      'Check the variables it uses, or write the value itself to have it checked.');
    return templateValue(v);
  }
}
