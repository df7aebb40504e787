/**
 * Doctor group `certificate`: every check of the TLS toolkit as its own line, for the files given
 * (--certificate/--key/--domain or the config's `certificate:` section) and the inventory's PEM
 * variables.
 */
import { statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { DoctorInput } from '../../doctor/input.js';
import type { CheckProvider } from '../../doctor/area.js';
import type { CertificateFact, Check, RunResult } from '../../doctor/types.js';
import { factKey, type FactKey } from '../../doctor/facts.js';
import { notConfigured } from '../../doctor/gates.js';
import type { RunServices } from '../../doctor/services.js';
import { trustOf } from '../../net/trust.js';
import { UsageError, messageOf } from '../../errors.js';
import { readInventoryTree } from '../../inventory/inventory.js';
import { namesView } from '../../config/neutral-names.js';
import { readRegularFileSync } from '../../safe-read.js';
import { registerSecret } from '../../secrets.js';
import type { CertCheck, CertFacts } from '../../tls/checks.js';
import { examine, type CertificateRole, type Examination } from '../../tls/examine.js';
import { certificateFact } from '../../tls/facts.js';
import { PEM_RULES } from '../../tls/variable-rules.js';
import { resolved, settingList } from '../../config/settings.js';
import { CHAIN_ORDER, CLOSED, GIVEN, TITLES, UNREADABLE } from './messages.js';
import type { Origin, Resolved } from '../../config/setting-schema.js';

const GROUP = 'certificate';
const SUPPLIED_RENEW =
  'The platform never renews a supplied wildcard certificate (cluster_issuer_type: none): get a renewed one from your CA before it expires, run cloudgate setup again and apply the new Secret manifest.';

interface Source {
  /** Id segment after `certificate.`: the file's name or the variable's rule, however many sources there are. */
  prefix: string;
  title: string;
  role: CertificateRole;
  hasKey: boolean;
  /** What the checks are about: the file (an inventory variable's is the inventory's). */
  file: string;
  /** The results of every check that could run, and every certificate read. */
  examine(services: RunServices): Promise<{ checks: CertCheck[]; certificates: CertificateFact[] }>;
}

const NAMES: Record<CertificateRole, { name: string; title: string; keyOnly?: boolean }[]> = {
  wildcard: [
    { name: 'parse', title: 'certificate file readable' },
    { name: 'key', title: 'private key readable', keyOnly: true },
    { name: 'chain-order', title: 'chain order (certificate, intermediate(s), root)' },
    { name: 'chain-complete', title: 'chain complete up to a root' },
    { name: 'key-match', title: 'key matches the certificate', keyOnly: true },
    { name: 'wildcard-san', title: 'wildcard name coverage' },
    { name: 'self-signed', title: 'issued by a CA' },
    { name: 'strength', title: 'key size and signature algorithm' },
    { name: 'validity', title: 'validity and expiry' },
  ],
  'ca-issuer': [
    { name: 'parse', title: 'certificate readable' },
    { name: 'key', title: 'private key readable', keyOnly: true },
    { name: 'chain-order', title: 'chain order (issuer, intermediate(s), root)' },
    { name: 'key-match', title: 'key matches the issuer', keyOnly: true },
    { name: 'ca', title: 'is a CA allowed to sign' },
    { name: 'strength', title: 'key size and signature algorithm' },
    { name: 'validity', title: 'validity and expiry' },
  ],
  'ca-bundle': [
    { name: 'parse', title: 'bundle readable' },
    { name: 'chain-order', title: 'bundle order' },
    { name: 'strength', title: 'key size and signature algorithm' },
    { name: 'validity', title: 'validity and expiry' },
  ],
};

export const provideChecks: CheckProvider = async (input) => {
  // Read once per call: the file sources' domain and the inventory's PEM values come from it.
  const inventory = loadInventory(input);
  const sources = [...fileSources(input, inventory), ...inventorySources(input, await inventory)];
  const given = certificateSettings(input);
  const orphan = (['key', 'domain'] as const).filter((f) => given[f]?.origin?.kind === 'flag');
  if (orphan.length && given.files.length === 0) {
    return [
      {
        id: `${GROUP}.files`,
        group: GROUP,
        title: TITLES.files,
        run: async () => ({
          status: 'fail',
          message: GIVEN.withoutCertificate(orphan, orphan.includes('key')),
          advice: GIVEN.addCertificate,
        }),
      },
      ...sources.flatMap(checksOf),
    ];
  }
  if (sources.length === 0) {
    return [
      {
        id: `${GROUP}.files`,
        group: GROUP,
        title: TITLES.files,
        gate: notConfigured(CLOSED.nothingGiven, CLOSED.giveCertificate),
      },
    ];
  }
  return sources.flatMap(checksOf);
};

/**
 * A source's checks, over one examination made by the first of them to run. The certificates read
 * (`parse`), the key read (`key`) and the chain's order (`chain-order`) are handed on under keys of
 * the source: a check that needs what could not be read is not run, and the runner names the check
 * that failed.
 */
function checksOf(source: Source): Check[] {
  let examination: Promise<{ byName: Map<string, CertCheck>; certificates: CertificateFact[] }> | undefined;
  const results = (services: RunServices) =>
    (examination ??= source
      .examine(services)
      .then(({ checks, certificates }) => ({ byName: new Map(checks.map((c) => [c.name, c])), certificates })));
  const subject = { file: source.file };
  const read = factKey<true>(GROUP, `the certificates of ${source.title}`);
  const key = factKey<true>(GROUP, `the private key of ${source.title}`);
  const order = factKey<true>(GROUP, `the chain order of ${source.title}`);
  const provides: Record<string, FactKey<true>[]> = { parse: [read], key: [key], 'chain-order': [order] };
  const needs = (name: string): FactKey<true>[] => {
    if (name === 'parse' || name === 'key') return [];
    return name === 'key-match' ? [read, key] : [read];
  };
  return NAMES[source.role]
    .filter((n) => source.hasKey || !n.keyOnly)
    .map(({ name, title }) => ({
      id: `${GROUP}.${source.prefix}.${name}`,
      group: GROUP,
      title: `${source.title}: ${title}`,
      needs: needs(name),
      ...(name === 'chain-complete' ? { uses: [order] } : {}),
      provides: provides[name] ?? [],
      async run(ctx): Promise<RunResult<CertFacts>> {
        const { byName, certificates } = await results(ctx.services);
        const found = byName.get(name);
        if (found && found.status !== 'skip' && provides[name] && found.status !== 'fail')
          for (const k of provides[name]) ctx.facts.set(k, true);
        if (!found || found.status === 'skip') {
          // The chain's order could not be established: chain-order (which failed) says why.
          return {
            unavailable: 'needs-failed',
            message: found?.message ?? CHAIN_ORDER.unknown,
            text: CHAIN_ORDER.fixFirst,
            subject,
          };
        }
        // The certificates read go with the expiry line (one line per file carries them).
        return {
          status: found.status,
          message: found.message,
          ...(found.advice ? { advice: found.advice } : {}),
          ...(found.facts ? { facts: found.facts } : {}),
          subject,
          ...(name === 'validity' ? { certificates } : {}),
        };
      },
    }));
}

/**
 * The group's settings through the resolver: the files (--certificate, else `files:` and `file:` of the
 * section), the key and the domain. A path is taken against the folder of where it was given: the
 * config file's folder for --config, the current folder otherwise.
 */
function certificateSettings(input: DoctorInput): { files: string[]; key?: Resolved; domain?: Resolved } {
  const configDir = input.configPath ? dirname(resolve(input.cwd, input.configPath)) : input.cwd;
  const base = (origin?: Origin) => (origin?.kind === 'config file' ? configDir : input.cwd);
  const listed = settingList(input, GROUP, 'files');
  const single = listed.some((f) => f.origin.kind === 'flag') ? [] : settingList(input, GROUP, 'file');
  const files = [...listed, ...single].map((f) => resolve(base(f.origin), f.value));
  const key = resolved(input, GROUP, 'key');
  const domain = resolved(input, GROUP, 'domain');
  return {
    files,
    ...(key.value !== undefined ? { key: { value: resolve(base(key.origin), key.value), origin: key.origin } } : {}),
    ...(domain.value !== undefined ? { domain } : {}),
  };
}

function fileSources(input: DoctorInput, inventory: Promise<Inventory>): Source[] {
  const given = certificateSettings(input);
  const { files } = given;
  const keyFile = given.key?.value;
  const domain = given.domain?.value;
  const prefixes = uniquePrefixes(files);
  refuseNonRegular([...files, keyFile]);

  return files.map((file, i) => {
    const key = i === 0 ? keyFile : undefined;
    return {
      prefix: prefixes[i],
      title: basename(file),
      role: 'wildcard' as const,
      hasKey: key !== undefined,
      file,
      async examine(services) {
        const certPem = await readText(file, 'certificate', 'parse');
        const keyPem = key === undefined ? undefined : await readText(key, 'private key', 'key');
        if (typeof keyPem === 'string') registerSecret(keyPem);
        const unreadable = [certPem, keyPem].filter((t): t is CertCheck => typeof t === 'object');
        if (typeof certPem !== 'string') return { checks: unreadable, certificates: [] };
        const result = examine({
          certPem,
          certSource: file,
          keyPem: typeof keyPem === 'string' ? keyPem : undefined,
          keySource: key,
          role: 'wildcard',
          domain: domain ?? inventoryDomain(await inventory),
          now: services.clock.now(),
          fixHint: 'Reorder the file, or run cloudgate setup with --fix-order to write the Secret in the right order.',
          anchors: trustOf(services).anchors(),
          renewAdvice: SUPPLIED_RENEW,
        });
        return { checks: [...result.checks, ...unreadable], certificates: factsOf(file, result) };
      },
    };
  });
}

function factsOf(source: string, examination: Examination): CertificateFact[] {
  return (examination.certificates ?? []).map((c) => certificateFact(source, c.x509));
}

function uniquePrefixes(files: string[]): string[] {
  const used = new Set<string>();
  return files.map((file, i) => {
    let prefix =
      basename(file)
        .toLowerCase()
        .replace(/[^a-z0-9-]+/g, '-')
        .replace(/^-|-$/g, '') || `file${i + 1}`;
    if (used.has(prefix)) prefix = `${prefix}-${i + 1}`;
    used.add(prefix);
    return prefix;
  });
}

/** The file's text, or the failed check (`parse` or `key`) that says why it cannot be read. */
async function readText(path: string, what: string, check: string): Promise<string | CertCheck> {
  try {
    // Checked again on the open file: a path swapped for a pipe after refuseNonRegular cannot hang the read.
    return readRegularFileSync(path, { what: `the ${what} file` });
  } catch (error) {
    const code = / (E[A-Z]+)\.$/.exec(messageOf(error))?.[1];
    return {
      name: check,
      status: 'fail',
      message:
        code === 'ENOENT'
          ? UNREADABLE.noSuchFile(what, path)
          : code === 'EACCES'
            ? UNREADABLE.permissionDenied(what, path)
            : messageOf(error),
      advice: code === 'EACCES' ? UNREADABLE.runAsReader(path) : UNREADABLE.checkPath,
    };
  }
}

/** A pipe or device given as a certificate or key is a usage error (exit 2), found before any check runs. */
function refuseNonRegular(paths: (string | undefined)[]): void {
  for (const path of paths) {
    if (path === undefined) continue;
    let info;
    try {
      info = statSync(path);
    } catch {
      continue; // missing or unreadable: the "parse"/"key" line says so
    }
    if (!info.isFile()) {
      throw new UsageError(
        `The certificate input ${path} is not a regular file (${info.isDirectory() ? 'a folder' : info.isFIFO() ? 'a pipe' : 'a device or socket'}).`,
        'Give the path of a PEM file; pipes, devices and folders are refused.',
      );
    }
  }
}

/** The inventory's values; `undefined` when missing or unreadable (the inventory group reports that). */
type Inventory = Record<string, unknown> | undefined;

function loadInventory(input: DoctorInput): Promise<Inventory> {
  return readInventoryTree(input.inventoryPath).then(
    (tree) => namesView(tree.values, input.inventoryPath, input.names).meant,
    () => undefined,
  );
}

function inventoryDomain(values: Inventory): string | undefined {
  const value = values?.openstack_helm_ingress_wildcard_domain;
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

function inventorySources(input: DoctorInput, values: Inventory): Source[] {
  if (!values) return [];
  const pem = (v: unknown) => (typeof v === 'string' && v.includes('-----BEGIN') ? v : undefined);
  return PEM_RULES.filter((rule) => pem(values[rule.certificate])).map((rule) => {
    const keyPem = rule.key ? pem(values[rule.key]) : undefined;
    if (keyPem) registerSecret(keyPem);
    return {
      prefix: rule.prefix,
      title: rule.certificate,
      role: rule.role,
      hasKey: keyPem !== undefined,
      file: input.inventoryPath,
      examine: async (services) => {
        const result = examine({
          certPem: pem(values[rule.certificate])!,
          certSource: rule.certificate,
          keyPem,
          keySource: rule.key,
          role: rule.role,
          now: services.clock.now(),
          fixHint: `Reorder the PEM value of ${rule.certificate} in the inventory: issuer first, then intermediate(s), then root.`,
          renewAdvice: rule.renewAdvice,
        });
        // The variable's own source: two PEM variables of one inventory are two series.
        return { checks: result.checks, certificates: factsOf(`${input.inventoryPath}#${rule.certificate}`, result) };
      },
    };
  });
}
