/**
 * The setup plan: what `cloudgate setup` will write, computed before anything is written. Both the
 * non-interactive command (`--answers`) and the walkthrough use this contract:
 *
 *   readAnswers(file)          -> { answers, sources, translated, profile? }: answers keyed by the platform's variable names
 *                                 + tool keys (`wildcard_certificate_file`, `wildcard_key_file`, `namespace`, `names`);
 *                                 neutral aliases translated (and listed); `file:PATH` resolved relative to the
 *                                 file; sources: the file each such value was read from; bad YAML / unknown key /
 *                                 unreadable file -> UsageError (exit 2).
 *   planSetup({ answers, sources?, inventoryPath, fixOrder?, secretManifestPath?, namespaces? }) -> SetupPlan:
 *                                 the new values (answers merged over the existing inventory), `findings`,
 *                                 `removedKeys` (branch no longer chosen), `renamed` (a neutral alias in the
 *                                 inventory written in the platform's words, in place), `previousIssuer`/`issuerChanged`
 *                                 (old certificates must be reissued), `files` to write and `diff` (secrets masked).
 *                                 Answers with `file:` values still unresolved (the walkthrough's, absolute)
 *                                 are resolved here; a `null` answer removes that variable.
 *   applyPlan(plan)            -> WrittenFile[]: all-or-nothing atomic writes with backups, under the
 *                                 inventory's lock; refuses (UsageError) when the findings hold an error,
 *                                 another run holds the lock, or the inventory changed since the plan.
 *
 * The session (session.ts) drives these for every front-end; review.ts and outcome.ts word the result.
 */
import { isChainOrderError, orderCaChains } from './ca-chain-order.js';
import { basename, dirname, resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { fillFromKeyFile } from '../config/tsig-key.js';
import { resolveWithSources, type Answers } from '../config/answers.js';
import { joinSources, type ValueSources } from '../config/value-sources.js';
import { removeOwnFile, writeFilesAtomically, type FileToWrite, type WrittenFile } from '../inventory/atomic-write.js';
import { UsageError, WriteError, messageOf } from '../errors.js';
import { memberOf, textOf } from '../records.js';
import { assertInventoryUnchanged, inventoryFingerprint, withInventoryLock } from '../inventory/lock.js';
import { hasErrors, type Finding } from '../findings.js';
import { holdsSecret, inventoryEdits, readInventoryFile, readInventoryTree } from '../inventory/inventory.js';
import { registerSecret } from '../secrets.js';
import { readRegularFile } from '../safe-read.js';
import { overrideWarnings } from '../inventory/vars-overrides.js';
import { BASE64_BUNDLE, isSet } from '../config/validate.js';
import type { VaultKeyring } from '../inventory/vault-options.js';
import {
  openVaulted,
  plainSecretsSealed,
  plainTextOf,
  sealValues,
  vaultWriteFindings,
  withoutUnchecked,
  type OpenedValues,
} from '../inventory/vaulted-values.js';
import { VARIABLES, applies, choicesOf, variable, type IssuerType, type NamingProfile } from '../config/variables.js';
import {
  fromAliases,
  namesView,
  resolveProfile,
  rowOf,
  spelled,
  toProfile,
  type Rename,
  type Translation,
} from '../config/neutral-names.js';
import { judgeValues } from '../render/judge.js';
import { AnsibleTagged } from '../inventory/ansible-tagged.js';
import { clusterReview, type ClusterReview } from '../render/review.js';
import { planSupplied, type SuppliedPlan } from './plan-supplied.js';
import { branchWords } from '../config/branch.js';
import { contradiction, encodeBundle, hasIssuerSettings } from './plan-rules.js';
import { maskedDiff } from './secret-masks.js';

export { readAnswers, type Answers, type AnswersFile } from '../config/answers.js';
export type { FileToWrite, WrittenFile } from '../inventory/atomic-write.js';
export { maskSecretLooking, secretMasks } from './secret-masks.js';

export { DEFAULT_SUPPLIED_SECRET_NAME, type SuppliedPlan } from './plan-supplied.js';

export interface PlanInput {
  answers: Answers;
  /** Where the answers' values were read from (readAnswers): findings name those files. */
  sources?: ValueSources;
  inventoryPath: string;
  /** Put a supplied chain into the right order instead of refusing it. */
  fixOrder?: boolean;
  /** Where to write the TLS Secret manifest of a supplied wildcard (default `<inventory root>/manifests/`). */
  secretManifestPath?: string;
  /** Namespaces for the TLS Secret (flag; overrides the answers' `namespace`). */
  namespaces?: string[];
  now?: Date;
  /** The vault passwords: vaulted values are opened for the checks, and every secret is written vaulted. */
  vault?: VaultKeyring;
  /** `--names`: the words the deployment reads (the platform's unless `spec`). */
  names?: string;
  /** The neutral aliases the answers file used, already translated (readAnswers): the review says so. */
  translated?: Translation[];
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
  /** Keys written in the other words, renamed (or removed) in place, each with why. */
  renamed: Rename[];
  /** Neutral aliases in the answers, read as the platform's words. */
  translated: Translation[];
  /** The key each variable (platform name) had in the inventory as read. */
  keys: Record<string, string>;
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
  /** The words the inventory is written in (the platform's unless --names spec); `values`, keys and findings above are the platform's. */
  names: NamingProfile;
  /** The secret variables the inventory will hold in plain text (no vault password given). */
  plainSecrets: string[];
}

export async function planSetup(input: PlanInput): Promise<SetupPlan> {
  const inventoryPath = resolve(input.inventoryPath);
  // Answers may use the neutral aliases: they are read as the platform's words, and the review says so.
  // The words written are the platform's unless --names spec (or `names: spec` in the answers) asks otherwise.
  const said = input.answers.names;
  const names = resolveProfile(input.names ?? (said === 'platform' || said === 'spec' ? said : undefined));
  const aliased = fromAliases(input.answers);
  const translated = [...(input.translated ?? []), ...aliased.translated];
  const resolved = resolveWithSources(aliased.values, process.cwd());
  const sources = joinSources(input.sources, resolved.sources);
  const answered = openVaulted(resolved.answers, input.vault);
  const answers = answered.values;
  const fingerprint = await inventoryFingerprint(inventoryPath); // before the read: a change in between is seen
  const file = await readInventoryFile(inventoryPath);
  // What the inventory means, every alias translated; what is written in the other words is renamed in place.
  const view = namesView(file.values, inventoryPath, names);
  const opened = openVaulted(view.meant, input.vault);
  const current = { ...file, values: opened.values };
  for (const row of VARIABLES) if (row.secret) registerSecret(current.values[row.name]);

  const set: Record<string, unknown> = {};
  const removedReasons: Record<string, string> = {};
  for (const [key, value] of Object.entries(answers)) {
    if (!variable(key)) continue;
    if (value === null) removedReasons[key] = 'removed by the answers';
    else set[key] = value;
  }

  keepEqualValues(set, current.values);
  fillFromKeyFile(set, current.values, sources.tsigKey);
  const chains = orderCaChains(set, sources.files, input.fixOrder ?? false);
  const bundleNotes = encodeBundle(set, input.now);

  const findings: Finding[] = [];
  const {
    supplied,
    manifest,
    findings: suppliedFindings,
    removed: suppliedRemoves,
  } = planSupplied({
    answers,
    set,
    current: current.values,
    inventoryPath,
    secretManifestPath: input.secretManifestPath,
    namespaces: input.namespaces,
    fixOrder: input.fixOrder,
    now: input.now,
  });
  findings.push(...suppliedFindings);
  Object.assign(removedReasons, suppliedRemoves);

  // Merge, then drop what the new choices no longer use: only values left in the inventory from
  // another branch; a value the answers give that the choices do not use is a contradiction.
  const explicit = new Set(Object.keys(answers).filter((key) => variable(key) && answers[key] !== null));
  const merged: Record<string, unknown> = { ...current.values, ...set };
  for (const key of Object.keys(removedReasons)) delete merged[key];
  const choices = choicesOf(merged);
  const contradictions: Finding[] = [];
  for (const row of VARIABLES) {
    if (row.appliesWhen && !applies(row, choices) && isSet(merged[row.name])) {
      if (explicit.has(row.name))
        contradictions.push(
          contradiction(row.name, row.appliesWhen, choices, {
            explicit,
            supplied: Boolean(supplied),
            inventory: current.values,
          }),
        );
      else removedReasons[row.name] = `not used with ${branchWords(choices)}`;
      delete merged[row.name];
      delete set[row.name];
    }
  }
  if (isSet(set.atmosphere_ingress_annotations) && isSet(merged.ingress_global_annotations)) {
    if (explicit.has('ingress_global_annotations')) {
      contradictions.push({
        rule: 'contradictory-answers',
        severity: 'error',
        variable: 'ingress_global_annotations',
        message:
          'The answers give both atmosphere_ingress_annotations and ingress_global_annotations (its deprecated name): only one of them can be written.',
        advice:
          'Merge the entries into atmosphere_ingress_annotations and remove ingress_global_annotations from the answers.',
      });
      delete set.ingress_global_annotations;
    } else {
      removedReasons.ingress_global_annotations = 'deprecated; replaced by atmosphere_ingress_annotations';
    }
    delete merged.ingress_global_annotations;
  }
  if (
    answers.openstack_helm_ingress_wildcard_domain !== undefined &&
    answers.openstack_helm_ingress_wildcard_domain !== null &&
    !isSet(answers.openstack_helm_ingress_wildcard_domain)
  ) {
    contradictions.push({
      rule: 'wildcard-domain-required',
      severity: 'error',
      variable: 'openstack_helm_ingress_wildcard_domain',
      message:
        'openstack_helm_ingress_wildcard_domain is empty in the answers: a wildcard certificate issued automatically needs its domain (empty would silently give individual certificates).',
      advice:
        'Give the domain, e.g. openstack_helm_ingress_wildcard_domain: cloud.example.com; for individual certificates leave the key out (or write ~ to remove it from the inventory).',
    });
  }
  const removedKeys = Object.keys(removedReasons).filter((k) => k in current.values);
  for (const key of Object.keys(removedReasons)) if (!removedKeys.includes(key)) delete removedReasons[key];

  const stillVaulted = new Set(
    Object.keys(merged).filter((name) => opened.unchecked.has(name) || answered.unchecked.has(name)),
  );
  // The one judgement render and doctor give (render/judge.ts), on the file as it will be: a value written
  // vaulted is never templated by Ansible, so it is judged as literal text.
  const around = await surroundingInventory(inventoryPath, input.vault);
  const judged = judgeValues(asDeployed(merged, input.vault !== undefined, opened), {
    now: input.now,
    sources,
    unchecked: stillVaulted,
    complete: around !== undefined,
    ...(around ? { context: around } : {}),
    ...(input.vault ? { open: (envelope: string) => input.vault!.open(envelope) } : {}),
  });
  const judgedFindings = judged.findings.map((f) =>
    f.variable && chains.fixable.includes(f.variable) && isChainOrderError(f)
      ? {
          ...f,
          advice: `${f.advice ?? 'Reorder the file.'} Or give --fix-order: the inventory gets the chain in the right order (the file is not changed).`,
        }
      : f,
  );
  findings.push(...chains.findings);
  findings.unshift(...contradictions, ...withoutUnchecked(judgedFindings, stillVaulted));
  if (BASE64_BUNDLE in merged) findings.push(...bundleNotes);
  findings.push(
    ...answered.findings,
    ...opened.findings.filter((f) => f.variable && f.variable in merged && !(f.variable in set)),
  );
  findings.push(
    ...(await overrideWarnings(
      inventoryPath,
      Object.keys(set).map((name) => spelled(name, names)),
    )),
  );
  const sealed = input.vault ? sealValues({ set, merged, current: opened }, input.vault) : { set, sealed: [] };
  findings.push(...vaultWriteFindings(sealed.sealed, input.vault, set, opened));

  // The key each variable has in the file now, and the renames of what is written in the other words.
  const keyOf = (name: string) => view.keys[name] ?? spelled(name, names);
  const removing = new Set(removedKeys.map(keyOf));
  const renamed = view.renames.filter((r) => !removing.has(r.from));
  const rename = Object.fromEntries(
    renamed.filter((r) => r.to !== undefined && r.to !== r.from).map((r) => [r.from, r.to!]),
  );
  const rewords = Object.fromEntries(
    renamed.filter((r) => r.to !== undefined && r.value !== undefined).map((r) => [r.to!, r.value]),
  );
  const { text: content, edits } = inventoryEdits(current.text, {
    set: { ...rewords, ...toProfile(sealed.set, names) },
    remove: [...removing, ...renamed.filter((r) => r.to === undefined).map((r) => r.from)],
    rename,
  });
  const secret = holdsSecret(merged);
  const files: FileToWrite[] = [];
  if (content !== current.text || !current.exists) {
    files.push({
      path: inventoryPath,
      content,
      mode: secret ? 0o600 : (current.mode ?? 0o644),
      holdsSecret: secret,
      description: current.exists ? 'inventory (updated)' : 'inventory (new)',
      ...(input.vault
        ? sealedBackup(current.text, plainSecretsSealed(sealed.sealed, opened), opened, input.vault, keyOf)
        : {}),
    });
  }
  // The same manifest again is not rewritten (nor its key backed up once more).
  if (manifest && !(await sameContent(manifest.path, manifest.content))) files.push(manifest);

  const hadSettings = hasIssuerSettings(current.values);
  // What the cluster holds now is what the inventory as written deploys: a neutral alias in it is not read.
  const deployedNow = Object.fromEntries(
    Object.keys(view.values).map((k) => [k, view.foreign.has(k) ? view.values[k] : current.values[k]]),
  );
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
    renamed,
    translated,
    keys: view.keys,
    issuer: choices.issuer,
    previousIssuer,
    issuerChanged: previousIssuer !== undefined && previousIssuer !== choices.issuer,
    supplied,
    files,
    diff: maskedDiff(inventoryPath, current.text, content, edits),
    cluster: clusterReview(hadSettings ? deployedNow : undefined, merged, names),
    names,
    plainSecrets: input.vault
      ? []
      : VARIABLES.filter(
          (row) =>
            row.secret &&
            typeof merged[row.name] === 'string' &&
            isSet(merged[row.name]) &&
            !opened.envelopes.has(row.name),
        ).map((row) => row.name),
  };
}

/**
 * The other variables of the inventory folder the file belongs to (`<root>/group_vars/...`), as the host
 * the role runs on sees them: what the file's templates may name. Undefined when the file is no part of
 * an inventory folder, or the folder cannot be read (then a template naming another file's variable is
 * a warning, not the role's stop).
 */
async function surroundingInventory(
  path: string,
  vault: VaultKeyring | undefined,
): Promise<Record<string, unknown> | undefined> {
  for (let dir = dirname(path); dirname(dir) !== dir; dir = dirname(dir)) {
    if (basename(dir) !== 'group_vars' && basename(dir) !== 'host_vars') continue;
    try {
      const tree = await readInventoryTree(dirname(dir), { keyring: vault });
      if (!tree.layout) return undefined;
      return Object.fromEntries(Object.entries(tree.values).filter(([name]) => !rowOf(name)));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * The values as the deployment will read them: what is (or will be) vaulted is literal text to Ansible.
 * In a plan a null removes the variable, so it is left out.
 */
function asDeployed(values: Record<string, unknown>, sealing: boolean, opened: OpenedValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value === null) continue;
    const vaulted = opened.envelopes.has(name) || (sealing && variable(name)?.secret === true);
    out[name] = vaulted && typeof value === 'string' ? new AnsibleTagged('!unsafe', value) : value;
  }
  return out;
}

/**
 * An answer that differs from the inventory's value only in leading or trailing whitespace (a PEM
 * kept by pressing Enter loses its last newline) is the inventory's value: nothing is rewritten, and
 * its scalar style (`|`) stays.
 */
function keepEqualValues(set: Record<string, unknown>, current: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(set)) {
    const was = current[key];
    if (typeof value === 'string' && typeof was === 'string' && value !== was && value.trim() === was.trim())
      set[key] = was;
  }
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
function sealedBackup(
  text: string,
  plain: string[],
  opened: OpenedValues,
  vault: VaultKeyring,
  keyOf: (name: string) => string,
): Pick<FileToWrite, 'backupContent'> {
  if (plain.length === 0) return {};
  const set = Object.fromEntries(
    plain.map((name) => [keyOf(name), vault.seal(plainTextOf(opened.values[name]) ?? '')]),
  );
  return { backupContent: inventoryEdits(text, { set, remove: [] }).text };
}

export async function applyPlan(plan: SetupPlan, now: Date = new Date()): Promise<WrittenFile[]> {
  if (hasErrors(plan.findings)) {
    const first = plan.findings.find((f) => f.severity === 'error')!;
    throw new UsageError(
      `Nothing was written: the settings have ${plan.findings.filter((f) => f.severity === 'error').length} error(s), the first: ${first.message}`,
      first.advice,
    );
  }
  // Taken even with nothing to write: taking it removes what a killed run left (its lock, its temps).
  return withInventoryLock(plan.inventoryPath, async () => {
    await assertInventoryUnchanged(plan.inventoryPath, plan.inventoryFingerprint);
    const written =
      plan.files.length === 0
        ? []
        : await writeFilesAtomically(plan.files, now).catch((error: unknown) => {
            throw error instanceof UsageError
              ? error
              : new WriteError(
                  messageOf(error),
                  textOf(memberOf(error, 'advice')) ??
                    'Check that the folders exist and are writable by you, and that the disk has room.',
                );
          });
    // The manifest an older cloudgate left among the variables goes once its new copy is written.
    const moved = plan.supplied?.movedFrom;
    if (moved && existsSync(plan.supplied!.manifestPath)) await removeOwnFile(moved).catch(() => false);
    return written;
  });
}
