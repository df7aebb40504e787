/**
 * The values the platform's role sees, with Ansible's rules (docs/platform.md, "How Ansible reads the
 * values"): a variable the inventory defines is used as written, even `""` or `null` (only an absent
 * one takes the role's default); a string holding `{{`, `{%` or `{#` is a template, rendered lazily
 * when a task uses it (jinja.ts), with the variables the inventory defines; a vaulted value is never
 * templated; what a task's `"{{ name }}"` gets is converted as ansible-core converts it (a number or
 * boolean kept, a string reading `True`/`False` or `{...}`/`[...]` turned into a value up to 2.18).
 *
 * Reads happen inside tasks (`task()`): a template that names a variable defined nowhere, or that
 * Jinja cannot parse, fails the task, as it fails the role's; nothing of a failed task is applied, and
 * no later task runs. Later tasks are still read, to report every such variable at once.
 */
import { isTagged, isVaulted } from '../inventory/ansible-tagged.js';
import { platformName } from '../config/neutral-names.js';
import { defaultOf, variable } from '../config/variables.js';
import {
  asText,
  isPossiblyTemplate,
  literalConversion,
  renderTemplate,
  type LookupResult,
  type TemplateStop,
} from './jinja.js';
import type { NamingProfile } from './names.js';
import type { HelmRelease, KubeObject, Rendered, RenderFinding, RenderedObject } from './types.js';

type Values = Record<string, unknown>;

/** Shown for a vaulted value: Ansible decrypts it only at deploy time. */
export const VAULTED_VALUE = '(vaulted: decrypted at deploy time)';
const TEMPLATE_END = ': resolved at deploy time)';
/** Shown for a template cloudgate cannot resolve from the inventory. */
export const templateValue = (template: string) => `(template ${template.trim()}${TEMPLATE_END}`;

/** Whether a rendered value stands for something known only when the deployment runs. */
export function isUnknownValue(value: unknown): boolean {
  return (
    typeof value === 'string' &&
    (value.includes(VAULTED_VALUE) || (value.startsWith('(template ') && value.endsWith(TEMPLATE_END)))
  );
}

/** How ansible-core turns a templated string into the value a module gets. */
export type Conversion = 'literal' | 'native';

export interface RoleOptions {
  /**
   * `literal` (ansible-core up to 2.18, what the platform pins): a templated string reading `True`,
   * `False`, `{...}` or `[...]` becomes a boolean, dict or list; `native` (2.19 and later): it stays.
   */
  conversion?: Conversion;
  /**
   * The values hold every variable the deploying host sees (an inventory folder). A lone vars file
   * does not: a template naming a variable it does not define may be defined elsewhere.
   */
  complete?: boolean;
  /** Opens a vault envelope (a vault password was given); without it a vaulted value is known only at deploy time. */
  open?: (envelope: string) => string;
  /**
   * The other variables the deploying host sees, for the templates to name (setup judges one file of
   * an inventory: `acme_host` may be defined in another). Never the table's own variables.
   */
  context?: Values;
}

/** The role's own variables (its vars/main.yml): they win over the inventory. */
const ROLE_VARS: Values = {
  _cluster_issuer_acme_infoblox_helm_values: { groupName: '{{ cluster_issuer_acme_infoblox_group_name }}' },
  _cluster_issuer_acme_godaddy_helm_values: { groupName: '{{ cluster_issuer_acme_godaddy_group_name }}' },
};

/** The role's defaults that are mappings (the table's defaults are scalars). */
const MAP_DEFAULTS: Values = {
  cluster_issuer_acme_godaddy_helm_values: {},
  cluster_issuer_acme_infoblox_helm_values: {},
};

type Resolved = LookupResult;

export class RoleValues {
  private readonly reported = new Set<string>();
  /** Every variable a task read (the branch's), for the findings that only matter when read. */
  readonly read = new Set<string>();
  /** The first stop of the deployment: nothing after it is applied. */
  stop?: RenderFinding;
  private failed = false;
  readonly conversion: Conversion;
  readonly complete: boolean;
  private readonly open?: (envelope: string) => string;
  private readonly context: Values;

  constructor(
    readonly values: Values,
    readonly profile: NamingProfile,
    readonly out: Rendered,
    options: RoleOptions = {},
  ) {
    this.conversion = options.conversion ?? 'literal';
    this.complete = options.complete ?? true;
    this.open = options.open;
    this.context = options.context ?? {};
  }

  /** `X is defined`: the inventory or the role's defaults define it, whatever its value (`""` and `null` included). */
  defined(name: string): boolean {
    this.read.add(name);
    return this.inInventory(name) || this.roleDefault(name) !== undefined;
  }

  /** Whether the inventory itself defines the variable (its key, whatever the value). */
  inInventory(name: string): boolean {
    // `undefined` comes from no YAML: a key set to it is a key left out.
    return Object.prototype.hasOwnProperty.call(this.values, name) && this.values[name] !== undefined;
  }

  /** The role's default of a variable (its defaults, the platform's `defaults` role), as written there. */
  roleDefault(name: string): unknown {
    if (name in MAP_DEFAULTS) return MAP_DEFAULTS[name];
    const row = variable(name);
    if (!row) return undefined;
    if (row.defaultFrom) return `{{ ${row.defaultFrom} }}`;
    return defaultOf(row, this.profile) ?? row.roleDefault;
  }

  /** The variable that gives a value: itself when the inventory defines it, else the one its default follows. */
  source(name: string): string {
    const from = variable(name)?.defaultFrom;
    return this.inInventory(name) || !from ? name : this.source(from);
  }

  /** A variable's value as Ansible's lazy templating gives it (no conversion yet). */
  private resolve(name: string, stack: string[]): Resolved {
    if (stack.includes(name))
      return { stop: { kind: 'loop', name, message: `recursive loop detected in template string: {{ ${name} }}` } };
    const raw =
      name in ROLE_VARS
        ? ROLE_VARS[name]
        : this.inInventory(name)
          ? this.values[name]
          : (this.roleDefault(name) ?? (variable(name) ? undefined : this.context[name]));
    if (raw === undefined) return { undefined: true };
    return this.templated(raw, [...stack, name]);
  }

  /** A variable's value with its templates rendered (no conversion), for the rules that check values. */
  resolved(name: string): Resolved {
    return this.resolve(name, []);
  }

  private templated(raw: unknown, stack: string[]): Resolved {
    if (isVaulted(raw)) {
      if (!this.open) return { unknown: VAULTED_VALUE };
      try {
        // A vaulted value is never templated: its plaintext is literal.
        return { value: this.open(raw.text) };
      } catch {
        return { unknown: VAULTED_VALUE }; // the vault findings say why it stays closed
      }
    }
    // `!unsafe` text, and a vaulted value the password opened, are never templated.
    if (isTagged(raw)) return { value: raw.text };
    if (typeof raw === 'string') {
      if (!isPossiblyTemplate(raw)) return { value: raw };
      const result = renderTemplate(raw, (n) => {
        const target = platformName(n);
        this.read.add(target);
        return this.resolve(target, stack);
      });
      if ('unknown' in result) return { unknown: templateValue(raw) };
      if ('stop' in result) return { stop: { ...result.stop, message: result.stop.message } };
      return { value: result.value };
    }
    if (Array.isArray(raw)) {
      const out: unknown[] = [];
      for (const item of raw) {
        const r = this.templated(item, stack);
        if (!('value' in r)) return r;
        out.push(r.value);
      }
      return { value: out };
    }
    if (raw !== null && typeof raw === 'object' && !(raw instanceof Date)) {
      const out: Values = {};
      for (const [k, v] of Object.entries(raw)) {
        const r = this.templated(v, stack);
        if (!('value' in r)) return r;
        out[k] = r.value;
      }
      return { value: out };
    }
    return { value: raw };
  }

  /**
   * What a task's `"{{ name }}"` gives: a number, boolean or null as is; a string as templated, then
   * converted as ansible-core converts it. An undefined variable (or a template that fails) fails the task.
   */
  field(name: string, what: string): unknown {
    this.read.add(name);
    const r = this.resolve(name, []);
    if ('undefined' in r) return this.undefinedStop(name, what);
    if ('stop' in r) return this.templateStop(name, r.stop);
    if ('unknown' in r) {
      this.finding(
        name,
        'info',
        'not-checked',
        `${name} is known only when the deployment runs (${r.unknown === VAULTED_VALUE ? 'vaulted' : 'a template cloudgate does not evaluate'}): cloudgate shows it as unknown and does not check it.`,
        r.unknown === VAULTED_VALUE
          ? 'Give the vault password (--vault-password-file or --vault-id) to have it checked.'
          : 'Write the value itself, or a template naming other variables, to have it checked.',
      );
      return r.unknown;
    }
    const raw =
      name in ROLE_VARS ? ROLE_VARS[name] : this.inInventory(name) ? this.values[name] : this.roleDefault(name);
    // A vaulted value is text too (the conversion applies to the role's template, not to the value).
    if (typeof raw === 'string' || isTagged(raw)) return this.converted(name, r.value);
    return r.value;
  }

  /** A templated string as the module gets it. */
  private converted(name: string, value: unknown): unknown {
    if (this.conversion === 'native') return value;
    const text = asText(value);
    const literal = literalConversion(text);
    if (literal === undefined) return text;
    if (typeof value === 'string') {
      this.finding(
        name,
        'warning',
        'ansible-core-conversion',
        `${name} is the text "${variable(name)?.secret ? '...' : text}": ansible-core up to 2.18 (which the platform pins) turns it into ${describe(literal.value)}, and 2.19 and later keep the text, so what the role passes depends on the ansible-core of the deploy host.`,
        typeof literal.value === 'boolean'
          ? `Write ${name}: ${String(literal.value)} without quotes (the same on every version), or quote it as !unsafe "${text}" to keep the text.`
          : `Write the value as YAML (a mapping or a list), not as text, or mark it !unsafe to keep the text.`,
      );
    }
    return literal.value;
  }

  /** The value inside a longer string (`"{{ a }}:{{ b }}"`): null becomes the empty string there. */
  text(name: string, what: string): string {
    this.read.add(name);
    const r = this.resolve(name, []);
    if ('undefined' in r) return String(this.undefinedStop(name, what));
    if ('stop' in r) return String(this.templateStop(name, r.stop));
    if ('unknown' in r) return r.unknown;
    return asText(r.value);
  }

  /** `"{{ name | default(fallback) }}"`: the fallback only when the variable is undefined (not for `""` or null). */
  withDefault(name: string, fallback: unknown): unknown {
    if (!this.defined(name)) return fallback;
    const r = this.resolve(name, []);
    if ('undefined' in r) return fallback;
    if ('stop' in r) return this.templateStop(name, r.stop);
    if ('unknown' in r) return r.unknown;
    return this.conversion === 'native' ? r.value : asText(r.value);
  }

  /** The name of an object: empty or null, the API server refuses the object. */
  name(name: string, what: string): string {
    const v = this.field(name, what);
    this.emptiness(name, v, `the name of ${what}`);
    return v === null || v === undefined ? '' : String(v);
  }

  /** A field with a role default that an empty or null value replaces (said, with the fix). */
  optional(name: string, what: string): unknown {
    const v = this.field(name, what);
    this.emptiness(name, v, what);
    return v;
  }

  /**
   * One task of the role: what `build` returns is applied unless a read inside it failed (or an earlier
   * task stopped the deployment). Returns whether the task ran to the end.
   */
  task(build: () => { objects?: RenderedObject[]; helm?: HelmRelease[] } | void): boolean {
    this.failed = false;
    const made = build() ?? {};
    if (this.failed || this.stop) return false;
    this.out.objects.push(...(made.objects ?? []));
    this.out.helm.push(...(made.helm ?? []));
    return true;
  }

  /** The deployment stops here (an include without a task file, an assert): nothing later runs. */
  stopHere(finding: RenderFinding): void {
    this.failed = true;
    this.record(finding, true);
  }

  /** Nothing later is rendered, and another finding already says why (a neutral word, a value known only at deploy time). */
  halt(why: RenderFinding): void {
    this.failed = true;
    this.stop ??= why;
  }

  private record(finding: RenderFinding, stops: boolean): void {
    const key = `${finding.variable} ${finding.message}`;
    if (!this.reported.has(key)) {
      this.reported.add(key);
      this.out.findings.push(finding);
    }
    if (stops) this.stop ??= finding;
  }

  finding(
    variableName: string,
    severity: RenderFinding['severity'],
    rule: string,
    message: string,
    advice?: string,
  ): void {
    this.record({ variable: variableName, severity, rule, message, ...(advice ? { advice } : {}) }, false);
  }

  private undefinedStop(name: string, what: string): string {
    this.failed = true;
    this.record(
      {
        variable: name,
        severity: 'error',
        rule: 'platform-needs',
        message: `${name} is not set, but the platform needs it for ${what}: the deployment would stop with "'${name}' is undefined".`,
        advice: `Set ${name} in the inventory.`,
      },
      true,
    );
    return '';
  }

  private templateStop(name: string, stop: TemplateStop): string {
    if (stop.kind === 'undefined' && !this.complete) {
      this.record(
        {
          variable: name,
          severity: 'warning',
          rule: 'template-undefined',
          message: `${name} is a template naming ${stop.name}, which this file does not define: unless another file of the inventory defines it, the deployment stops with "${stop.message}".`,
          advice: `Give --inventory the inventory folder (with group_vars/ and the hosts file), so that every file is read; or define ${stop.name}.`,
        },
        false,
      );
      return templateValue(`{{ ${stop.name} }}`);
    }
    this.failed = true;
    const vaulted = isVaulted(this.values[name]) || variable(name)?.secret;
    this.record(
      stop.kind === 'undefined'
        ? {
            variable: name,
            severity: 'error',
            rule: 'template-undefined',
            ...(stop.name ? { cause: stop.name } : {}),
            message: `${name} is a template naming ${stop.name}, which the inventory defines nowhere the deploying host reads: the deployment stops with "${stop.message}".`,
            advice: `Define ${stop.name} (in group_vars/all, or where the controllers read it), or write ${name}'s value itself.`,
          }
        : stop.kind === 'loop'
          ? {
              variable: name,
              severity: 'error',
              rule: 'template-loop',
              message: `${name} refers back to itself through its templates: the deployment stops with "${stop.message}".`,
              advice: `Give one of the variables of the loop a value of its own.`,
            }
          : {
              variable: name,
              severity: 'error',
              rule: 'template-syntax',
              message: `${name} holds "{{", "{%" or "{#", so Ansible templates it, and Jinja cannot parse it${vaulted ? '' : ` ("${stop.message}")`}: the deployment stops there.`,
              advice: `If the braces are part of the value (a password, say), mark it literal: ${name}: !unsafe '...' (or vault it: Ansible never templates a vaulted value).`,
            },
      true,
    );
    return '';
  }

  /** An empty or null value replaces the role's default: said, with the fix. */
  private emptiness(name: string, v: unknown, what: string): void {
    if (!this.inInventory(name) || (v !== '' && v !== null)) return;
    const own = this.roleDefault(name);
    if (own === undefined) return;
    const row = variable(name);
    const fallback = row?.defaultFrom ? `the value of ${row.defaultFrom}` : String(own);
    this.finding(
      name,
      'info',
      'empty-replaces-default',
      `${name} is ${v === null ? 'null (a key with no value)' : 'empty'}: Ansible counts it as defined, so the role's default (${fallback}) does not apply and the role passes ${v === null ? 'null' : '""'} as ${what}.`,
      `Give ${name} a value, or remove the line to use ${fallback}.`,
    );
  }
}

function describe(value: unknown): string {
  if (typeof value === 'boolean') return `the boolean ${String(value)}`;
  if (Array.isArray(value)) return 'a list';
  return 'a mapping';
}

/** A rendered object and the variables that made it. */
export function made(object: KubeObject, from: string[], extra: Partial<RenderedObject> = {}): RenderedObject {
  return { object, from, ...extra };
}
