/**
 * The walkthrough's file questions: a path (or `file:PATH`) read and checked as the answers mode
 * would, with the certificate checks that can run with the answers so far.
 */
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { UsageError, codeOf, messageOf } from '../errors.js';
import type { Finding } from '../findings.js';
import { readOwnedFileSync } from '../safe-read.js';
import { redact, registerSecret } from '../secrets.js';
import { loadSuppliedWildcard } from '../tls/supplied.js';
import { derError, looksLikeDer } from '../tls/pem.js';
import { pemVariableFindings } from '../tls/variable-rules.js';
import { examine } from '../tls/examine.js';
import { toFinding } from '../tls/variable-rules.js';
import { isChainOrderError, orderedCaChain } from './ca-chain-order.js';
import {
  FIX_ORDER,
  WILDCARD_CERTIFICATE_FILE,
  type AnswerValue,
  type Step,
  type WizardAnswers,
} from './wizard-flow.js';
import {
  ALGORITHM as TSIG_ALGORITHM,
  KEY_NAME as TSIG_KEY_NAME,
  SECRET as TSIG_SECRET,
  looksLikeKeyStatement,
  parseBindKey,
  type BindKey,
} from '../config/tsig-key.js';

export interface FileCheck {
  /** What to store as the answer (`file:PATH` for PEM variables, the absolute path for tool keys). */
  value?: string;
  /** Errors keep the walkthrough on this question; warnings are shown and may be accepted. */
  findings: Finding[];
  /** A fix offered in place (`Use the right order?`): accepting the warnings adds these answers (and stores `value` instead). */
  offer?: { question: string; also: WizardAnswers; value?: string };
}

/** Reads a file input and runs the certificate checks that can run with the answers so far. */
export function checkFileInput(step: Step, raw: string, answers: WizardAnswers, cwd: string): FileCheck {
  const typed = raw
    .trim()
    .replace(/^file:/, '')
    .replace(/^~(?=\/)/, homedir());
  const path = resolve(cwd, typed);
  const subject = step.variable?.name ?? step.id;
  let text: string;
  try {
    if (!statSync(path).isFile()) return problem(subject, `${path} is not a file.`, 'Give the path of a PEM file.');
    // Read on the open file: a pipe swapped in after the check is refused, a huge file is not loaded.
    text = readOwnedFileSync(path, { what: 'the file' });
  } catch (error) {
    const code = codeOf(error) ?? / (E[A-Z]+)\.$/.exec(messageOf(error))?.[1];
    if (!code && error instanceof UsageError)
      return problem(subject, error.message, 'Give the path of a PEM file of at most 1 MiB.');
    const why =
      code === 'ENOENT'
        ? 'does not exist'
        : code === 'EACCES'
          ? 'is not readable (permission denied)'
          : `cannot be read (${code ?? String(error)})`;
    return problem(subject, `${path} ${why}.`, 'Check the path; it is relative to the current directory.');
  }
  const isKey = step.fileRole === 'wildcard-key' || step.variable?.type === 'pem-key';
  if (isKey) registerSecret(text);
  const marker = isKey ? /-----BEGIN [A-Z ]*PRIVATE KEY-----/ : /-----BEGIN CERTIFICATE-----/;
  if (!marker.test(text)) {
    // A DER file gets the conversion command, as in the answers mode.
    if (looksLikeDer(text)) {
      const der = derError(path);
      return problem(subject, der.message, der.advice!);
    }
    return problem(
      subject,
      `${path} holds no PEM ${isKey ? 'private key' : 'certificate'}.`,
      `Expected a block starting with -----BEGIN ${isKey ? 'PRIVATE KEY' : 'CERTIFICATE'}-----.`,
    );
  }
  const value = step.fileRole === 'pem' ? `file:${path}` : path;
  if (step.fileRole === 'wildcard-certificate') return { value, ...suppliedChainCheck(path, text, answers) };
  const findings = certificateFindings(step, path, text, answers, cwd);
  return { value, findings, ...caChainOffer(step, path, text, findings) };
}

/**
 * A CA chain (the CA issuer's certificate, the commercial CA's) in the wrong order whose right order is
 * known: offered in place, as the supplied wildcard's is. Accepted, the inventory gets the chain in that
 * order (the file itself is not changed); the order's error becomes a warning the offer answers.
 */
function caChainOffer(
  step: Step,
  path: string,
  text: string,
  findings: Finding[],
): Partial<Pick<FileCheck, 'findings' | 'offer'>> {
  const order = findings.find(isChainOrderError);
  const ordered = order && step.variable ? orderedCaChain(step.variable.name, text, path) : undefined;
  if (!order || !ordered) return {};
  return {
    findings: findings.map((f) =>
      f === order
        ? {
            ...f,
            severity: 'warning',
            advice: `Use the right order? Accept: the inventory gets the chain as ${ordered.names.length} certificates, ${ordered.names.join(', ')} (your file is not changed).`,
          }
        : f,
    ),
    offer: { question: 'Use the right order?', also: {}, value: ordered.pem },
  };
}

function certificateFindings(step: Step, path: string, text: string, answers: WizardAnswers, cwd: string): Finding[] {
  try {
    if (step.fileRole === 'wildcard-key') {
      const certificateFile = String(answers[WILDCARD_CERTIFICATE_FILE] ?? '');
      if (!certificateFile) return [];
      const domain = answers.openstack_helm_ingress_wildcard_domain;
      // The certificate's own findings were shown on its question: here, those of the key.
      return loadSuppliedWildcard({
        certificateFile,
        keyFile: path,
        fixOrder: answers[FIX_ORDER] === 'true',
        domain: typeof domain === 'string' && domain ? domain : undefined,
      }).findings.filter((f) => f.variable === 'wildcard_key_file');
    }
    if (step.fileRole !== 'pem' || !step.variable) return [];
    const values: Record<string, unknown> = { [step.variable.name]: text };
    const files: Record<string, string> = { [step.variable.name]: path };
    if (step.variable.type === 'pem-key') {
      // The key is checked against the certificate given just before it.
      const certificate = pemOf(answers.cluster_issuer_ca_certificate, cwd);
      if (certificate) values.cluster_issuer_ca_certificate = certificate;
      const certificateFile = answers.cluster_issuer_ca_certificate;
      if (typeof certificateFile === 'string' && certificateFile.startsWith('file:'))
        files.cluster_issuer_ca_certificate = resolve(cwd, certificateFile.slice(5));
    }
    const name = step.variable.name;
    return pemVariableFindings(values, new Date(), files).filter(
      (f) => f.variable === undefined || f.variable === name,
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return [
      {
        rule: 'certificate-check',
        variable: step.variable?.name ?? step.id,
        severity: 'warning',
        message: `The certificate checks could not run: ${redact(message)}`,
      },
    ];
  }
}

/**
 * The supplied chain on its own question: order, completeness, coverage, expiry. A chain in the
 * wrong order whose right order is known is offered in place: accepted, it is written in that order.
 */
function suppliedChainCheck(path: string, text: string, answers: WizardAnswers): Pick<FileCheck, 'findings' | 'offer'> {
  const domain = answers.openstack_helm_ingress_wildcard_domain;
  const result = examine({
    certPem: text,
    certSource: path,
    role: 'wildcard',
    domain: typeof domain === 'string' && domain ? domain : undefined,
    now: new Date(),
    fixOrder: false,
    fixHint: 'Accept the right order here, or reorder the file yourself.',
    renewAdvice:
      'The platform never renews a supplied wildcard certificate: get a renewed one from your CA, then run cloudgate setup again and apply the new Secret manifest.',
  });
  const findings: Finding[] = [];
  let offer: FileCheck['offer'];
  for (const check of result.checks) {
    const finding = toFinding(check, `wildcard-${check.name}`, WILDCARD_CERTIFICATE_FILE);
    if (!finding) continue;
    if (check.name === 'chain-order' && check.status === 'fail' && result.ordered) {
      offer = { question: 'Use the right order?', also: { [FIX_ORDER]: 'true' } };
      findings.push({
        ...finding,
        severity: 'warning',
        advice: `Use the right order? Accept: the TLS Secret gets the chain as ${result.ordered.length} certificates, the server certificate first (your file is not changed).`,
      });
    } else findings.push(finding);
  }
  return { findings, ...(offer ? { offer } : {}) };
}

/** The PEM text of an answer given inline or as `file:PATH`. */
export function pemOf(value: AnswerValue | undefined, cwd: string): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  if (!value.startsWith('file:')) return value;
  try {
    return readOwnedFileSync(resolve(cwd, value.slice(5)), { what: 'the PEM file' });
  } catch {
    return undefined;
  }
}

function problem(variable: string, message: string, advice: string): FileCheck {
  return { findings: [{ rule: 'file-input', variable, severity: 'error', message, advice }] };
}

/** A typed value that names a file rather than being the secret itself (base64 holds no dot). */
export function looksLikePath(raw: string): boolean {
  return /^(file:|~\/|\.{0,2}\/)/.test(raw.trim()) || raw.includes('.');
}

export interface SecretInput {
  /** The secret to store, or `file:PATH` for a key file (the plan reads it, and so knows the key the secret came from). */
  value?: string;
  error?: string;
  /** The key file's name and algorithm, as the next answers. */
  also?: WizardAnswers;
}

/**
 * The TSIG secret question takes the key file tsig-keygen wrote (`file:PATH` or a path): the answer
 * names the file, as a PEM file question's does, and its name and algorithm answer the next two
 * questions. Anything else is the secret itself.
 */
export function secretInput(step: Step, raw: string, cwd: string): SecretInput {
  if (step.id !== TSIG_SECRET || raw.trim() === '') return { value: raw.trim() };
  const path = resolve(
    cwd,
    raw
      .trim()
      .replace(/^file:/, '')
      .replace(/^~(?=\/)/, homedir()),
  );
  if (!looksLikePath(raw) && !existsSync(path)) return { value: raw.trim() };
  try {
    const text = readOwnedFileSync(path, { what: 'the TSIG key file' });
    if (!looksLikeKeyStatement(text)) {
      // Not a key statement: it may hold anything, and none of it is printed.
      registerSecret(text);
      return { error: `${path} holds no BIND key statement (key "NAME" { algorithm ...; secret "..."; };).` };
    }
    // Only the secret is masked: the statement's start (`key "NAME" {`) is the key's name, which is shown.
    const key = parseBindKey(text, path);
    registerSecret(key.secret);
    return { value: `file:${path}`, also: { [TSIG_KEY_NAME]: key.name, [TSIG_ALGORITHM]: key.algorithm } };
  } catch (error) {
    if (codeOf(error) === 'ENOENT')
      return { error: `${path} does not exist. Check the path; it is relative to the current directory.` };
    return {
      error: redact(
        error instanceof UsageError ? [error.message, error.advice].filter(Boolean).join(' ') : messageOf(error),
      ),
    };
  }
}

/**
 * A secret question's answer: what is typed, or, on an empty Enter, the answer before it (a key file
 * read again, so that its name and algorithm answer the next two questions again).
 */
export function secretAnswer(step: Step, typed: string, existing: string, cwd: string): SecretInput {
  if (typed !== '' || existing === '') return secretInput(step, typed, cwd);
  return existing.startsWith('file:') ? secretInput(step, existing, cwd) : { value: existing };
}

/** What Enter keeps at a secret question answered before: a key file by its path, a secret unseen. */
export function keepHint(existing: string): string {
  return existing.startsWith('file:')
    ? `(Enter keeps the key file ${existing.slice(5)})`
    : '(Enter keeps the current value)';
}

/**
 * The key statement the TSIG secret's `file:PATH` answer names (secretInput checked it when it was
 * given); undefined for a secret typed in, or a file no longer readable (the plan then says why).
 */
export function answeredKeyFile(answers: Record<string, unknown>): BindKey | undefined {
  const value = answers[TSIG_SECRET];
  if (typeof value !== 'string' || !value.startsWith('file:')) return undefined;
  const path = value.slice(5);
  try {
    const text = readOwnedFileSync(path, { what: 'the TSIG key file' });
    const key = looksLikeKeyStatement(text) ? parseBindKey(text, path) : undefined;
    registerSecret(key ? key.secret : text);
    return key;
  } catch {
    return undefined;
  }
}
