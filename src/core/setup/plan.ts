/**
 * The setup plan: what `cloudgate setup` will write, computed before anything is written. Both the
 * non-interactive command (`--answers`) and the walkthrough use this contract:
 *
 *   readAnswers(file)          -> Answers: inventory variable names + tool keys (`wildcard_certificate_file`,
 *                                 `wildcard_key_file`, `namespace`); `file:PATH` resolved relative to the
 *                                 file; bad YAML / unknown key / unreadable file -> UsageError (exit 2).
 *   planSetup({ answers, inventoryPath, fixOrder?, secretManifestPath?, namespaces? }) -> SetupPlan:
 *                                 the new values (answers merged over the existing inventory), `findings`,
 *                                 `removedKeys` (branch no longer chosen), `previousIssuer`/`issuerChanged`
 *                                 (old certificates must be reissued), `files` to write and `diff` (secrets masked).
 *                                 Answers with `file:` values still unresolved (the walkthrough's, absolute)
 *                                 are resolved here; a `null` answer removes that variable.
 *   applyPlan(plan)            -> WrittenFile[]: all-or-nothing atomic writes with backups, under the
 *                                 inventory's lock; refuses (UsageError) when the findings hold an error,
 *                                 another run holds the lock, or the inventory changed since the plan.
 *
 * The session (session.ts) drives these for every front-end; review.ts and outcome.ts word the result.
 */
import { dirname, join, resolve } from 'node:path';
import { fillFromKeyFile } from '../config/tsig-key.js';
import { isMap, isScalar, isSeq, parseDocument } from 'yaml';
import { DEFAULT_NAMESPACE, answersNames, resolveAnswers, type Answers } from '../config/answers.js';
import { writeFilesAtomically, type FileToWrite, type WrittenFile } from '../inventory/atomic-write.js';
import { UsageError, WriteError } from '../errors.js';
import { assertInventoryUnchanged, inventoryFingerprint, withInventoryLock } from '../inventory/lock.js';
import { hasErrors, type Finding } from '../findings.js';
import { holdsSecret, inventoryEdits, readInventoryFile, type TextEdit } from '../inventory/inventory.js';
import { ANSIBLE_YAML_OPTIONS, eachTopLevelEntry } from '../inventory/yaml-load.js';
import { unifiedDiffOfEdits } from './edit-diff.js';
import { tlsSecretManifest } from './manifests.js';
import { mask, redact, registerSecret } from '../secrets.js';
import { loadSuppliedWildcard } from '../tls/supplied.js';
import { readRegularFile } from '../safe-read.js';
import { overrideWarnings } from '../inventory/vars-overrides.js';
import { BASE64_BUNDLE, isSet, validate } from '../config/validate.js';
import type { VaultKeyring } from '../inventory/vault-options.js';
import { openVaulted, plainSecretsSealed, plainTextOf, sealValues, vaultWriteFindings, withoutUnchecked, type OpenedValues } from '../inventory/vaulted-values.js';
import { VARIABLES, applies, choicesOf, variable, type IssuerType } from '../config/variables.js';
import { pemVariableFindings } from '../tls/variable-rules.js';
import { detectProfile, neutralName, neutralView, spelled, toNeutral, toPlatform } from '../config/platform-names.js';
import type { NamingProfile } from '../render/names.js';
import { platformFindings } from '../render/findings.js';
import { clusterReview, type ClusterReview } from '../render/review.js';

export { readAnswers, type Answers } from '../config/answers.js';
export type { FileToWrite, WrittenFile } from '../inventory/atomic-write.js';

export const DEFAULT_SUPPLIED_SECRET_NAME = 'wildcard-certs';

export interface PlanInput {
  answers: Answers;
  inventoryPath: string;
  /** Put a supplied chain into the right order instead of refusing it. */
  fixOrder?: boolean;
  /** Where to write the TLS Secret manifest of a supplied wildcard (default next to the inventory). */
  secretManifestPath?: string;
  /** Namespaces for the TLS Secret (flag; overrides the answers' `namespace`). */
  namespaces?: string[];
  now?: Date;
  /** The vault passwords: vaulted values are opened for the checks, and every secret is written vaulted. */
  vault?: VaultKeyring;
  /** `--names`: the variable names the inventory uses (detected from it when not given). */
  names?: string;
}

export interface SuppliedPlan {
  secretName: string;
  namespaces: string[];
  manifestPath: string;
  certificateFile: string;
  keyFile: string;
  reordered: boolean;
}

export interface SetupPlan {
  inventoryPath: string;
  inventoryExists: boolean;
  /** What the inventory held when the plan was made (applyPlan refuses when it changed since). */
  inventoryFingerprint: string;
  /** Every value of the inventory file after the change (unrelated keys included). */
  values: Record<string, unknown>;
  /** The table variables written or changed by this plan. */
  changedKeys: string[];
  findings: Finding[];
  /** Variables deleted from the inventory, each with why. */
  removedKeys: string[];
  removedReasons: Record<string, string>;
  issuer: IssuerType;
  previousIssuer?: IssuerType;
  issuerChanged: boolean;
  supplied?: SuppliedPlan;
  /** Only files whose content changes. */
  files: FileToWrite[];
  /** Unified diff of the inventory, secrets masked; empty when it does not change. */
  diff: string;
  /** What changes in the cluster: the objects rendered from the current and the planned values. */
  cluster: ClusterReview;
  /** The variable names the inventory is read and written with; `values`, keys and findings above are neutral. */
  names: NamingProfile;
}

export async function planSetup(input: PlanInput): Promise<SetupPlan> {
  const inventoryPath = resolve(input.inventoryPath);
  // Answers may use either set of names; the inventory's own set decides how it is written.
  const answersProfile = answersNames(input.answers) ?? detectProfile(Object.keys(input.answers), 'the answers');
  const answered = openVaulted(resolveAnswers(answersProfile === 'platform' ? toNeutral(input.answers) : input.answers, process.cwd()), input.vault);
  const answers = answered.values;
  const fingerprint = await inventoryFingerprint(inventoryPath); // before the read: a change in between is seen
  const file = await readInventoryFile(inventoryPath);
  const inventoryNames = detectProfile(Object.keys(file.values), inventoryPath);
  const view = neutralView(file.values, inventoryPath, input.names ?? (inventoryNames ? undefined : answersProfile));
  const names = view.profile;
  const opened = openVaulted(view.values, input.vault);
  const current = { ...file, values: opened.values };
  for (const row of VARIABLES) if (row.secret) registerSecret(current.values[row.name]);

  const set: Record<string, unknown> = {};
  const removedReasons: Record<string, string> = {};
  for (const [key, value] of Object.entries(answers)) {
    if (!variable(key)) continue;
    if (value === null) removedReasons[key] = 'removed by the answers';
    else set[key] = value;
  }

  fillFromKeyFile(set, current.values);
  const bundleNotes = encodeBundle(set, input.now);

  const findings: Finding[] = [];
  let supplied: SuppliedPlan | undefined;
  let manifest: FileToWrite | undefined;
  const certificateFile = answers.wildcard_certificate_file as string | undefined;
  const keyFile = answers.wildcard_key_file as string | undefined;
  if (certificateFile || keyFile) {
    if (!certificateFile || !keyFile) {
      throw new UsageError('A supplied wildcard certificate needs both wildcard_certificate_file and wildcard_key_file.',
        `Add ${certificateFile ? 'wildcard_key_file' : 'wildcard_certificate_file'} to the answers.`);
    }
    if (isSet(set.cluster_issuer_type) && set.cluster_issuer_type !== 'none') {
      throw new UsageError(`The answers supply a wildcard certificate but set cluster_issuer_type: ${String(set.cluster_issuer_type)}.`,
        'A supplied certificate needs cluster_issuer_type: none (the platform must not issue over it); remove cluster_issuer_type or set it to none.');
    }
    const secretName = String(set.cloud_helm_ingress_secret_name ?? current.values.cloud_helm_ingress_secret_name ?? DEFAULT_SUPPLIED_SECRET_NAME);
    set.cluster_issuer_type = 'none';
    set.cloud_helm_ingress_secret_name = secretName;
    const namespaces = input.namespaces?.length ? input.namespaces : (answers.namespace as string[] | undefined) ?? [DEFAULT_NAMESPACE];
    const manifestPath = resolve(input.secretManifestPath ?? join(dirname(inventoryPath), `${secretName}.secret.yaml`));
    const domain = (set.cloud_helm_ingress_wildcard_domain ?? current.values.cloud_helm_ingress_wildcard_domain) as string | undefined;
    const wildcard = loadSuppliedWildcard({ certificateFile, keyFile, domain: domain || undefined, fixOrder: input.fixOrder ?? false, now: input.now });
    registerSecret(wildcard.keyPem);
    findings.push(...wildcard.findings);
    supplied = { secretName, namespaces, manifestPath, certificateFile, keyFile, reordered: wildcard.reordered };
    if (!hasErrors(wildcard.findings)) {
      manifest = {
        path: manifestPath,
        content: tlsSecretManifest({ name: secretName, namespaces, chainPem: wildcard.chainPem, keyPem: wildcard.keyPem }),
        mode: 0o600,
        holdsSecret: true,
        description: `TLS Secret manifest (${secretName} in ${namespaces.join(', ')})`,
      };
    }
  }

  // Merge, then drop what the new choices no longer use: only values left in the inventory from
  // another branch; a value the answers give that the choices do not use is a contradiction.
  const explicit = new Set(Object.keys(answers).filter((key) => variable(key) && answers[key] !== null));
  const merged: Record<string, unknown> = { ...current.values, ...set };
  for (const key of Object.keys(removedReasons)) delete merged[key];
  const choices = choicesOf(merged);
  const contradictions: Finding[] = [];
  for (const row of VARIABLES) {
    if (row.appliesWhen && !applies(row, choices) && isSet(merged[row.name])) {
      if (explicit.has(row.name)) contradictions.push(contradiction(row.name, row.appliesWhen, choices, { explicit, supplied: Boolean(supplied), inventory: current.values }));
      else removedReasons[row.name] = `not used with ${branchOf(choices)}`;
      delete merged[row.name];
      delete set[row.name];
    }
  }
  if (isSet(set.platform_ingress_annotations) && isSet(merged.ingress_global_annotations)) {
    if (explicit.has('ingress_global_annotations')) {
      contradictions.push({
        rule: 'contradictory-answers', severity: 'error', variable: 'ingress_global_annotations',
        message: 'The answers give both platform_ingress_annotations and ingress_global_annotations (its deprecated name): only one of them can be written.',
        advice: 'Merge the entries into platform_ingress_annotations and remove ingress_global_annotations from the answers.',
      });
      delete set.ingress_global_annotations;
    } else {
      removedReasons.ingress_global_annotations = 'deprecated; replaced by platform_ingress_annotations';
    }
    delete merged.ingress_global_annotations;
  }
  if (answers.cloud_helm_ingress_wildcard_domain !== undefined && answers.cloud_helm_ingress_wildcard_domain !== null
    && !isSet(answers.cloud_helm_ingress_wildcard_domain)) {
    contradictions.push({
      rule: 'wildcard-domain-required', severity: 'error', variable: 'cloud_helm_ingress_wildcard_domain',
      message: 'cloud_helm_ingress_wildcard_domain is empty in the answers: a wildcard certificate issued automatically needs its domain (empty would silently give individual certificates).',
      advice: 'Give the domain, e.g. cloud_helm_ingress_wildcard_domain: cloud.example.com; for individual certificates leave the key out (or write ~ to remove it from the inventory).',
    });
  }
  const removedKeys = Object.keys(removedReasons).filter((k) => k in current.values);
  for (const key of Object.keys(removedReasons)) if (!removedKeys.includes(key)) delete removedReasons[key];

  const stillVaulted = new Set(Object.keys(merged).filter((name) => opened.unchecked.has(name) || answered.unchecked.has(name)));
  const rules = validate(merged, { now: input.now });
  findings.unshift(...contradictions, ...withoutUnchecked([...rules, ...platformFindings(merged, rules)], stillVaulted));
  if (BASE64_BUNDLE in merged) findings.push(...bundleNotes);
  findings.push(...answered.findings, ...opened.findings.filter((f) => f.variable && f.variable in merged && !(f.variable in set)));
  findings.push(...await overrideWarnings(inventoryPath, Object.keys(set).map((name) => spelled(name, names))));
  const sealed = input.vault ? sealValues({ set, merged, current: opened }, input.vault) : { set, sealed: [] };
  findings.push(...vaultWriteFindings(sealed.sealed, input.vault, set, opened));

  const { text: content, edits } = inventoryEdits(current.text, {
    set: names === 'platform' ? toPlatform(sealed.set) : sealed.set,
    remove: removedKeys.map((name) => spelled(name, names)),
  });
  const secret = holdsSecret(merged);
  const files: FileToWrite[] = [];
  if (content !== current.text || !current.exists) {
    files.push({
      path: inventoryPath,
      content,
      mode: secret ? 0o600 : current.mode ?? 0o644,
      holdsSecret: secret,
      description: current.exists ? 'inventory (updated)' : 'inventory (new)',
      ...(input.vault ? sealedBackup(current.text, plainSecretsSealed(sealed.sealed, opened), opened, input.vault, names) : {}),
    });
  }
  // The same manifest again is not rewritten (nor its key backed up once more).
  if (manifest && !(await sameContent(manifest.path, manifest.content))) files.push(manifest);

  const hadSettings = hasIssuerSettings(current.values);
  const previousIssuer = hadSettings ? choicesOf(current.values).issuer : undefined;
  return {
    inventoryPath,
    inventoryExists: current.exists,
    inventoryFingerprint: fingerprint,
    values: merged,
    changedKeys: Object.keys(set).filter((k) => JSON.stringify(current.values[k]) !== JSON.stringify(set[k])),
    findings,
    removedKeys,
    removedReasons,
    issuer: choices.issuer,
    previousIssuer,
    issuerChanged: previousIssuer !== undefined && previousIssuer !== choices.issuer,
    supplied,
    files,
    diff: maskedDiff(inventoryPath, current.text, content, edits),
    cluster: clusterReview(hadSettings ? current.values : undefined, merged, names),
    names,
  };
}

/**
 * The platform passes the TPP bundle unchanged into a field the certificate manager reads as base64:
 * a PEM bundle given in the answers (or the walkthrough's file) is written base64-encoded, and said so.
 */
function encodeBundle(set: Record<string, unknown>, now = new Date()): Finding[] {
  const pem = set[BASE64_BUNDLE];
  if (typeof pem !== 'string' || !pem.includes('-----BEGIN CERTIFICATE-----')) return [];
  set[BASE64_BUNDLE] = Buffer.from(pem).toString('base64');
  return [
    // The certificate checks run on the PEM given: the encoded value is not read again.
    ...pemVariableFindings({ [BASE64_BUNDLE]: pem }, now),
    {
      rule: 'commercialca-tpp-ca-bundle-encoded', severity: 'info', variable: BASE64_BUNDLE,
      message: `${BASE64_BUNDLE} is written base64-encoded: the platform passes it unchanged to the issuer's caBundle, which takes base64.`,
    },
  ];
}

interface ContradictionContext {
  inventory: Record<string, unknown>;
  explicit: Set<string>;
  /** The answers supply a wildcard certificate (which sets cluster_issuer_type: none). */
  supplied: boolean;
}

/** An answer the choices do not use: names the answer and the choice that excludes it, and where that choice comes from. */
function contradiction(name: string, when: NonNullable<ReturnType<typeof variable>>['appliesWhen'], choices: ReturnType<typeof choicesOf>, ctx: ContradictionContext): Finding {
  const [choice, wanted, actual] =
    when?.issuer && !when.issuer.includes(choices.issuer) ? ['cluster_issuer_type', when.issuer, choices.issuer]
      : when?.solver && !when.solver.includes(choices.solver) ? ['cluster_issuer_acme_solver', when.solver, choices.solver]
        : ['cluster_issuer_acme_clouddnsb_auth', when?.auth ?? [], choices.auth];
  const source = ctx.explicit.has(choice) ? 'set in the answers'
    : choice === 'cluster_issuer_type' && ctx.supplied ? 'because the answers supply a wildcard certificate'
      : isSet(ctx.inventory[choice]) ? 'as the inventory has it' : 'its default';
  return {
    rule: 'contradictory-answers', severity: 'error', variable: name,
    message: `The answers give ${name}, which is used only with ${choice}: ${wanted.join(' or ')}, but ${choice} is ${actual} (${source}): one of the two is wrong, and a value you give is never dropped.`,
    advice: `Remove ${name} from the answers, or set ${choice}: ${wanted[0]} in them.`,
  };
}

function branchOf(choices: ReturnType<typeof choicesOf>): string {
  if (choices.issuer !== 'acme') return `cluster_issuer_type: ${choices.issuer}`;
  if (choices.solver === 'clouddnsb') return `cluster_issuer_acme_solver: clouddnsb, auth ${choices.auth}`;
  return `cluster_issuer_acme_solver: ${choices.solver}`;
}

function hasIssuerSettings(values: Record<string, unknown>): boolean {
  return VARIABLES.some((row) => row.name !== 'platform_ingress_annotations' && isSet(values[row.name]));
}

async function sameContent(path: string, content: string): Promise<boolean> {
  try {
    return (await readRegularFile(path, { what: 'the TLS Secret manifest' })) === content;
  } catch {
    return false;
  }
}

/**
 * The previous version as its backup will hold it: with the secrets this write vaults, which were
 * plain text in it, vaulted too, so that no plaintext secret is written when a vault password is given.
 */
function sealedBackup(text: string, plain: string[], opened: OpenedValues, vault: VaultKeyring, names: NamingProfile): Pick<FileToWrite, 'backupContent'> {
  if (plain.length === 0) return {};
  const set = Object.fromEntries(plain.map((name) => [spelled(name, names), vault.seal(plainTextOf(opened.values[name]) ?? '')]));
  return { backupContent: inventoryEdits(text, { set, remove: [] }).text };
}

/** The diff of the inventory as it will be written, secrets masked (shown, never printed). */
function maskedDiff(path: string, before: string, after: string, edits: TextEdit[]): string {
  return redact(unifiedDiffOfEdits(path, { before, after, beforeMasks: secretMasks(before), afterMasks: secretMasks(after) }, edits));
}

/** Keys that are not table variables but look like they hold a secret (`db_password`, `api_key`, ...). */
const SECRET_LOOKING = /password|secret|token|key/i;

/**
 * The splices that mask, at any depth, every scalar under a key that looks secret, and the values of
 * the table's secret variables (the table's `secret` column decides for them:
 * `cloud_helm_ingress_secret_name` is not a secret), so that no line of the diff shows a secret.
 * Only the top-level entries whose text holds such a key are parsed (one at a time), and every line
 * stays where it was.
 */
export function secretMasks(text: string): TextEdit[] {
  const masks: TextEdit[] = [];
  const split = eachTopLevelEntry(text, (entry) => {
    const row = variable(neutralName(entry.key));
    if (row ? row.secret : SECRET_LOOKING.test(text.slice(entry.start, entry.end))) masks.push(...masksIn(text, entry.start, entry.end));
  });
  return split ? masks : masksIn(text, 0, text.length);
}

/** The text with its secrets masked (secretMasks applied). */
export function maskSecretLooking(text: string): string {
  let out = '';
  let at = 0;
  for (const edit of secretMasks(text)) {
    out += text.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return out + text.slice(at);
}

function masksIn(text: string, from: number, to: number): TextEdit[] {
  const part = text.slice(from, to);
  const doc = parseDocument(part, ANSIBLE_YAML_OPTIONS);
  if (doc.errors.length > 0) return [];
  const masks: TextEdit[] = [];
  const walk = (node: unknown, masked: boolean, top: boolean): void => {
    if (isMap(node)) {
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : '';
        const row = top ? variable(neutralName(key)) : undefined;
        walk(pair.value, masked || (row ? row.secret === true : SECRET_LOOKING.test(key)), false);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) walk(item, masked, false);
    } else if (masked && isScalar(node) && node.range && node.range[0] < node.range[1]) {
      masks.push(...lineMasks(part, node.range[0], node.range[1], from));
    }
  };
  walk(doc.contents, false, true);
  return masks.sort((a, b) => a.start - b.start);
}

/** One mask per line of [start, end): the first line's value, then each line's text after its indent. */
function lineMasks(part: string, start: number, end: number, offset: number): TextEdit[] {
  const out: TextEdit[] = [];
  for (let at = start, first = true; at < end; first = false) {
    const nl = part.indexOf('\n', at);
    const lineEnd = nl === -1 || nl >= end ? end : nl;
    const from = first ? at : at + /^[ \t]*/.exec(part.slice(at, lineEnd))![0].length;
    if (from < lineEnd) out.push({ start: from + offset, end: lineEnd + offset, text: mask('x') });
    at = lineEnd + 1;
  }
  return out;
}

export async function applyPlan(plan: SetupPlan, now: Date = new Date()): Promise<WrittenFile[]> {
  if (hasErrors(plan.findings)) {
    const first = plan.findings.find((f) => f.severity === 'error')!;
    throw new UsageError(`Nothing was written: the settings have ${plan.findings.filter((f) => f.severity === 'error').length} error(s), the first: ${first.message}`,
      first.advice);
  }
  // Taken even with nothing to write: taking it removes what a killed run left (its lock, its temps).
  return withInventoryLock(plan.inventoryPath, async () => {
    await assertInventoryUnchanged(plan.inventoryPath, plan.inventoryFingerprint);
    if (plan.files.length === 0) return [];
    return writeFilesAtomically(plan.files, now).catch((error: Error) => {
      throw error instanceof UsageError ? error : new WriteError(error.message, (error as { advice?: string }).advice ?? 'Check that the folders exist and are writable by you, and that the disk has room.');
    });
  });
}
