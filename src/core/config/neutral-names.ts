/**
 * The neutral aliases at the edges. cloudgate works in the platform's names and words (vocabulary.ts,
 * variables.ts); the neutral aliases (`cloud_helm_ingress_*`, `clouddnsb`, `commercialca`, ...) are read
 * wherever a name or value is read and translated here, and reported where the deployment would not read
 * them, with the rename as the fix. They are written only with `--names spec` (a deployment written to
 * read them). docs/neutral-names.md lists them.
 */
import { notOneOf } from '../closest.js';
import { isOneOf } from '../records.js';
import {
  NAMING_PROFILES,
  VARIABLES,
  platformOfName,
  variable,
  variableByAlias,
  wordOfAlias,
  type NamingProfile,
  type Variable,
} from './variables.js';

/** The row of a name in either words (`cluster_issuer_acme_route53_region` or its alias). */
export function rowOf(name: string): Variable | undefined {
  return variable(name) ?? variableByAlias(name);
}

/** A variable (by the platform's name) as a deployment reading `profile`'s words spells it. */
export function spelled(name: string, profile: NamingProfile): string {
  return profile === 'spec' ? (variable(name)?.alias ?? name) : name;
}

/** A value of a choosing variable in `profile`'s words (`route53` → `clouddnsb` for spec); other values unchanged. */
export function spelledValue(name: string, value: unknown, profile: NamingProfile): unknown {
  if (profile !== 'spec' || typeof value !== 'string') return value;
  return variable(name)?.words?.[value]?.alias ?? value;
}

/** A choosing variable's value in the platform's words (`clouddnsb` → `route53`); anything else unchanged. */
export function platformValue(row: Variable | undefined, value: unknown): unknown {
  if (!row?.words || typeof value !== 'string') return value;
  return wordOfAlias(row.words, value.trim()) ?? value;
}

/** Values keyed by the platform's names, as a deployment reading `profile`'s words has them written. */
export function toProfile(values: Record<string, unknown>, profile: NamingProfile): Record<string, unknown> {
  if (profile === 'platform') return values;
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => [spelled(name, profile), spelledValue(name, value, profile)]),
  );
}

/** A neutral alias read in an input and translated: `from` as written, `to` as cloudgate reads it. */
export interface Translation {
  from: string;
  to: string;
}

/**
 * Input in either words (an answers file, the walkthrough's answers, the `acme:` section of --config)
 * → keyed by the platform's names with values in its words, and what was translated. A name given
 * both ways keeps the platform's.
 */
export function fromAliases(input: Record<string, unknown>): {
  values: Record<string, unknown>;
  translated: Translation[];
} {
  const values: Record<string, unknown> = {};
  const translated: Translation[] = [];
  for (const [key, value] of Object.entries(input)) {
    const row = rowOf(key);
    const name = row?.name ?? key;
    if (name !== key && key in input && name in input) continue;
    const word = platformValue(row, value);
    values[name] = word;
    if (name !== key) translated.push({ from: key, to: name });
    if (word !== value) translated.push({ from: `${name}: ${String(value)}`, to: `${name}: ${String(word)}` });
  }
  return { values, translated };
}

export interface NamingFinding {
  rule: 'naming';
  severity: 'error';
  variable: string;
  message: string;
  advice: string;
}

/** How setup writes a variable of the other words in place: its key renamed (or removed), its value in the right words. */
export interface Rename {
  /** The key as the inventory writes it. */
  from: string;
  /** The key the deployment reads; absent: remove `from` (the right key is set too). */
  to?: string;
  /** The value in the deployment's words, when it is written in the other ones. */
  value?: string;
  /** The value as written, when `value` replaces it. */
  was?: string;
  /** Why, for the review. */
  reason: string;
}

/** An inventory's values as cloudgate works on them, and the words its deployment reads. */
export interface NamesView {
  /**
   * Keyed by the platform's names: what the deployment reads. A variable written in the other words is
   * left out (the deployment ignores it); a choosing value in the other words stays as written (the role
   * has no task for it, see `foreign`).
   */
  values: Record<string, unknown>;
  /** Keyed by the platform's names with every alias translated: what the operator meant. */
  meant: Record<string, unknown>;
  profile: NamingProfile;
  /** Always true: the words are the platform's unless `--names spec` says otherwise (kept for drift's comparison). */
  stated: boolean;
  /** Variables and choosing values in the other words, each with its rename. */
  naming: NamingFinding[];
  /** Choosing variables (platform names) whose value is in the other words: the role has no task for it. */
  foreign: Set<string>;
  /** How to write them in the deployment's words, in place (setup offers it in the review). */
  renames: Rename[];
  /** The key each variable (platform name) is written with in the inventory. */
  keys: Record<string, string>;
}

/** `--names`: the platform's words unless `spec` is asked for. */
export function resolveProfile(asked: unknown): NamingProfile {
  if (asked === undefined) return 'platform';
  if (!isOneOf(NAMING_PROFILES, asked)) {
    throw notOneOf('--names', String(asked), NAMING_PROFILES, {
      otherwise:
        "platform (the default) is what the platform's role reads; spec writes the neutral aliases, for a deployment written to read them.",
    });
  }
  return asked;
}

const WORDS: Record<NamingProfile, string> = {
  platform: "the platform's own names",
  spec: 'the neutral names (--names spec)',
};
/** Why a key or a value is rewritten, for the review. */
const READS_NAME: Record<NamingProfile, string> = {
  platform: "the platform's own name",
  spec: 'the neutral alias, as --names spec says',
};
const READS_VALUE: Record<NamingProfile, string> = {
  platform: "the platform's own word",
  spec: 'the neutral word, as --names spec says',
};

/**
 * An inventory's values read for a deployment that reads `asked`'s words (the platform's by default):
 * every name and value translated to the platform's, and each variable or choosing value written in the
 * other words reported, with the rename that fixes it.
 */
export function namesView(raw: Record<string, unknown>, _source: string, asked?: unknown): NamesView {
  const profile = resolveProfile(asked);
  const values: Record<string, unknown> = {};
  const meant: Record<string, unknown> = {};
  const naming: NamingFinding[] = [];
  const foreign = new Set<string>();
  const renames: Rename[] = [];
  const keys: Record<string, string> = {};
  const reads = (row: Variable) => spelled(row.name, profile);
  for (const [key, value] of Object.entries(raw)) {
    const row = rowOf(key);
    if (!row) {
      values[key] = value;
      meant[key] = value;
      continue;
    }
    const word = platformValue(row, value);
    const right = reads(row);
    // The value in the deployment's words, when it is written in the other ones.
    const wrongWord =
      typeof value === 'string' && spelledValue(row.name, word, profile) !== value
        ? String(spelledValue(row.name, word, profile))
        : undefined;
    if (key !== right) {
      if (right in raw) {
        naming.push(
          finding(
            row.name,
            `${key} is ${describe(key, right, profile)}: the deployment reads ${WORDS[profile]} and ignores it; ${right} is set too.`,
            `Remove ${key} (the value of ${right} is the one deployed).`,
          ),
        );
        renames.push({ from: key, reason: `${right} is set too, and the deployment reads only that one` });
        continue;
      }
      naming.push(
        finding(
          row.name,
          `${key} is ${describe(key, right, profile)}: the deployment reads ${WORDS[profile]}, so it ignores ${key} and its value.`,
          `Rename ${key} to ${right}${wrongWord ? ` and write its value as ${wrongWord}` : ''} ("cloudgate setup" offers to).`,
        ),
      );
      renames.push({
        from: key,
        to: right,
        ...(wrongWord ? { value: wrongWord, was: String(value) } : {}),
        reason: READS_NAME[profile],
      });
      meant[row.name] = word;
      keys[row.name] = key;
      continue;
    }
    keys[row.name] = key;
    meant[row.name] = word;
    if (wrongWord) {
      foreign.add(row.name);
      values[row.name] = value;
      naming.push(
        finding(
          row.name,
          `${key} is "${String(value)}", ${profile === 'platform' ? `the neutral alias of ${wrongWord}` : `the platform's word for ${wrongWord}`}: the deployment reads ${WORDS[profile]}, its role has no task for "${String(value)}" (or refuses it), and it stops there.`,
          `Write ${key}: ${wrongWord} ("cloudgate setup" offers to).`,
        ),
      );
      renames.push({ from: key, to: key, value: wrongWord, was: String(value), reason: READS_VALUE[profile] });
      continue;
    }
    values[row.name] = word;
  }
  return { values, meant, profile, stated: true, naming, foreign, renames, keys };
}

function describe(key: string, right: string, profile: NamingProfile): string {
  return profile === 'platform' ? `the neutral alias of ${right}` : `the platform's name of ${right}`;
}

function finding(variable: string, message: string, advice: string): NamingFinding {
  return { rule: 'naming', severity: 'error', variable, message, advice };
}

// Longest first: a name that contains another is replaced whole.
const ALIASED = VARIABLES.filter((row) => row.alias).sort((a, b) => b.name.length - a.name.length);
const NAME_TOKEN = new RegExp(`(?<![A-Za-z0-9_])(${ALIASED.map((row) => row.name).join('|')})(?![A-Za-z0-9_])`, 'g');

/**
 * A text that names variables by the platform's names, as a deployment reading `profile`'s words spells
 * them (`--names spec`: each variable name by its alias). Other words stay: product words elsewhere in a
 * text may be cert-manager's own (`route53:` in an issuer), which is never renamed.
 */
export function respell(text: string, profile: NamingProfile): string {
  if (profile === 'platform') return text;
  return text.replace(NAME_TOKEN, (name) => variable(name)?.alias ?? name);
}

/** A finding as a deployment reading `profile`'s words would have it (variable names only; see respell). */
export function respellFinding<T extends { message: string; advice?: string; variable?: string }>(
  finding: T,
  profile: NamingProfile,
): T {
  if (profile === 'platform') return finding;
  return {
    ...finding,
    message: respell(finding.message, profile),
    ...(finding.advice !== undefined ? { advice: respell(finding.advice, profile) } : {}),
    ...(finding.variable !== undefined ? { variable: spelled(finding.variable, profile) } : {}),
  };
}

/** What the review says about the words written; nothing for the platform's own (the default). */
export function profileLine(profile: NamingProfile): string | undefined {
  return profile === 'spec'
    ? "Variable names: the neutral aliases (--names spec): the platform's own role does not read them."
    : undefined;
}

/** The variable (platform name) a name in either words stands for; other names unchanged (a guess at a typo translates too). */
export function platformName(name: string): string {
  return rowOf(name)?.name ?? platformOfName(name);
}
