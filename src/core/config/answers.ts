/**
 * The answers file of `cloudgate setup --answers FILE`: YAML whose keys are the inventory's variable
 * names plus the tool keys below. PEM and secret values may be given inline or as `file:PATH`
 * (relative to the answers file). Secret values are registered for redaction as soon as read.
 */
import { isDnsLabel } from '../kube/names.js';
import { PLATFORM_NAMESPACE } from '../kube/platform.js';
import { dirname, isAbsolute, resolve } from 'node:path';
import { SECRET as TSIG_SECRET, secretFromFile } from './tsig-key.js';
import { isTagged } from '../inventory/ansible-tagged.js';
import { UsageError, messageOf } from '../errors.js';
import { asRecord, isOneOf, memberOf, textOf } from '../records.js';
import { escapeLine } from '../escape.js';
import { MAX_INPUT_BYTES, readOwnedFileSync } from '../safe-read.js';
import { registerSecret } from '../secrets.js';
import { closest } from '../closest.js';
import { closestName } from './validate.js';
import { variable, type NamingProfile } from './variables.js';
import type { ValueSources } from './value-sources.js';
import { formatMiB, isMapping, loadYaml, refuseNotices } from '../inventory/yaml-load.js';
import { fromAliases, type Translation } from './neutral-names.js';

/** Inventory variable names and tool keys to values; `null` for a variable means "remove it". */
export type Answers = Record<string, unknown>;

/** `names`: which words the deployment reads, as `--names` (`platform`, the default, or `spec`). */
export const TOOL_KEYS = ['wildcard_certificate_file', 'wildcard_key_file', 'namespace', 'names'] as const;
/** The namespace of a supplied wildcard's TLS Secret unless the answers name others. */
export const DEFAULT_NAMESPACE = PLATFORM_NAMESPACE;

/** A few PEM bundles and secrets: far below what slows the YAML parser or exhausts memory. */
export const MAX_ANSWERS_BYTES = 4 * 1024 * 1024;

/**
 * An answers file read: its answers (the platform's names and words), where their `file:PATH` values
 * were read from, the neutral aliases it used (translated, said in the review), and `names:` when given.
 */
export interface AnswersFile {
  answers: Answers;
  sources: ValueSources;
  translated: Translation[];
  profile?: NamingProfile;
}

export async function readAnswers(file: string): Promise<AnswersFile> {
  const text = readOwnedFileSync(file, { what: 'the answers file', maxBytes: MAX_ANSWERS_BYTES });
  const source = { what: 'the answers file', path: file, advice: 'Fix the YAML syntax; nothing was written.' };
  const loaded = loadYaml(text, source);
  // An unknown tag would be written as plain text and change what Ansible reads: refuse it.
  refuseNotices(loaded.notices, source);
  if (!isMapping(loaded)) {
    throw new UsageError(
      `The answers file ${file} must be a YAML mapping of variable names to values.`,
      'Example:\n  cluster_issuer_type: acme\n  cluster_issuer_acme_email: ops@example.com',
    );
  }
  const written: Answers = asRecord(loaded.value) ?? {};
  // An answers file may use the neutral aliases: they are read as the platform's names and words.
  const { values: doc, translated } = fromAliases(written);
  for (const [key, value] of Object.entries(doc)) {
    const text = isTagged(value) ? value.text : typeof value === 'string' ? value : undefined;
    if (text !== undefined && variable(key)?.secret) registerSecret(text);
    if (text !== undefined && text.length > MAX_INPUT_BYTES && Buffer.byteLength(text) > MAX_INPUT_BYTES) {
      throw new UsageError(
        `The answers file ${file}: the value of ${escapeLine(key)} is larger than ${formatMiB(MAX_INPUT_BYTES)}.`,
        'Check the value; no setting of the platform is that large. Nothing was written.',
      );
    }
  }
  const { answers, sources } = resolveWithSources(doc, dirname(resolve(file)), file);
  const said = answers.names;
  return said === 'platform' || said === 'spec'
    ? { answers, sources, translated, profile: said }
    : { answers, sources, translated };
}

/** The answers of resolveWithSources, without where their values came from. */
export function resolveAnswers(raw: Answers, baseDir: string, source = 'the answers'): Answers {
  return resolveWithSources(raw, baseDir, source).answers;
}

/**
 * Checks the keys and resolves `file:PATH` values (relative to `baseDir`), returning with the answers
 * the file each PEM value and the key statement the TSIG secret was read from (findings name them).
 * Also used for the walkthrough's answers, whose file values are absolute.
 */
export function resolveWithSources(
  raw: Answers,
  baseDir: string,
  source = 'the answers',
): { answers: Answers; sources: ValueSources } {
  const out: Answers = {};
  const sources: ValueSources = { files: {} };
  for (const [key, value] of Object.entries(raw)) {
    const row = variable(key);
    if (!row && !isOneOf(TOOL_KEYS, key)) {
      const guess = closestName(key) ?? closest(key, TOOL_KEYS);
      throw new UsageError(
        `${source}: unknown key "${key}".`,
        guess
          ? `Did you mean ${guess}?`
          : `Keys are the inventory variable names ("cloudgate schema") and ${TOOL_KEYS.join(', ')}.`,
      );
    }
    if (key === 'wildcard_certificate_file' || key === 'wildcard_key_file') {
      if (typeof value !== 'string' || value.trim() === '')
        throw new UsageError(`${source}: ${key} must be a file path.`);
      out[key] = resolve(baseDir, value.trim().replace(/^file:/, ''));
      continue;
    }
    if (key === 'namespace') {
      out[key] = namespaces(value, source);
      continue;
    }
    if (key === 'names') {
      if (value !== 'platform' && value !== 'spec') {
        throw new UsageError(
          `${source}: names must be platform (the platform's own names, the default) or spec (the neutral aliases), not "${String(value)}".`,
        );
      }
      out[key] = value;
      continue;
    }
    let resolved = value;
    let file: string | undefined;
    if (typeof value === 'string' && value.startsWith('file:')) {
      const path = value.slice(5).trim();
      const full = isAbsolute(path) ? path : resolve(baseDir, path);
      file = full;
      if (key === TSIG_SECRET) {
        // A TSIG secret may be given as the key file tsig-keygen writes: its secret is taken from the block.
        const read = secretFromFile(readValueFile(full, key, 'raw', source), path);
        resolved = read.secret;
        if (read.key) sources.tsigKey = read.key;
      } else {
        resolved = readValueFile(full, key, row!.type.startsWith('pem-') ? 'pem' : 'line', source);
      }
    }
    // PEM written on Windows (or by node-forge) has CRLF line ends; in YAML those become "\r" escapes.
    if (row!.type.startsWith('pem-') && typeof resolved === 'string') {
      resolved = resolved.replace(/\r\n?/g, '\n');
      // A finding about it names the file, as the walkthrough does.
      if (file) sources.files[key] = file;
    }
    if (row!.secret) registerSecret(resolved);
    out[key] = resolved;
  }
  return { answers: out, sources };
}

/**
 * The value of `key: file:PATH`. The content is never quoted in a message, and a value that is not
 * PEM is registered for redaction: a file may hold anything (`/proc/self/environ`), and a later
 * check that quotes the value must not print it.
 */
function readValueFile(full: string, key: string, kind: 'pem' | 'line' | 'raw', source: string): string {
  let text: string;
  try {
    text = readOwnedFileSync(full, { what: `the file of ${key}` });
  } catch (error) {
    throw new UsageError(
      `${source}: ${messageOf(error)}`,
      textOf(memberOf(error, 'advice')) ??
        'Give the path of the file relative to the answers file, or paste the value inline.',
    );
  }
  if (kind === 'raw') return text;
  if (kind === 'pem') {
    if (!text.includes('-----BEGIN ')) {
      throw new UsageError(
        `${source}: ${key} names ${full}, which holds no PEM block.`,
        'Give a PEM file (a "-----BEGIN ...-----" block), or paste the value inline.',
      );
    }
    return text;
  }
  const trimmed = text.trim();
  registerSecret(trimmed);
  if (/[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/.test(trimmed)) {
    throw new UsageError(
      `${source}: ${key} names ${full}, which is not a one-line value (it holds line breaks or control characters).`,
      `Put only the value of ${key} in the file, or paste the value inline.`,
    );
  }
  return trimmed;
}

function namespaces(value: unknown, source: string): string[] {
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
  const names = list.map((v) => String(v).trim()).filter(Boolean);
  const bad = names.find((n) => !isDnsLabel(n));
  if (names.length === 0 || bad !== undefined) {
    throw new UsageError(
      `${source}: namespace ${bad === undefined ? 'is empty' : `"${bad}" is not a valid Kubernetes namespace`}.`,
      `Give one name or a list, e.g. namespace: [${DEFAULT_NAMESPACE}, auth-system, monitoring].`,
    );
  }
  return [...new Set(names)];
}
