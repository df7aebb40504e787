/**
 * The walkthrough's file questions: a path (or `file:PATH`) read and checked as the answers mode
 * would, with the certificate checks that can run with the answers so far.
 */
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import type { Finding } from '../findings.js';
import { readRegularFileSync } from '../safe-read.js';
import { redact, registerSecret } from '../secrets.js';
import { loadSuppliedWildcard } from '../tls/supplied.js';
import { derError, looksLikeDer } from '../tls/pem.js';
import { pemVariableFindings } from '../tls/variable-rules.js';
import { WILDCARD_CERTIFICATE_FILE, type AnswerValue, type Step, type WizardAnswers } from './wizard-flow.js';

export interface FileCheck {
  /** What to store as the answer (`file:PATH` for PEM variables, the absolute path for tool keys). */
  value?: string;
  /** Errors keep the walkthrough on this question; warnings are shown and may be accepted. */
  findings: Finding[];
}

/** Reads a file input and runs the certificate checks that can run with the answers so far. */
export function checkFileInput(step: Step, raw: string, answers: WizardAnswers, cwd: string): FileCheck {
  const typed = raw.trim().replace(/^file:/, '').replace(/^~(?=\/)/, homedir());
  const path = resolve(cwd, typed);
  const subject = step.variable?.name ?? step.id;
  let text: string;
  try {
    if (!statSync(path).isFile()) return problem(subject, `${path} is not a file.`, 'Give the path of a PEM file.');
    // Read on the open file: a pipe swapped in after the check is refused, a huge file is not loaded.
    text = readRegularFileSync(path, { what: 'the file' });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? / (E[A-Z]+)\.$/.exec((error as Error).message)?.[1];
    if (!code && error instanceof UsageError) return problem(subject, error.message, 'Give the path of a PEM file of at most 1 MiB.');
    const why = code === 'ENOENT' ? 'does not exist' : code === 'EACCES' ? 'is not readable (permission denied)' : `cannot be read (${code ?? String(error)})`;
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
    return problem(subject, `${path} holds no PEM ${isKey ? 'private key' : 'certificate'}.`,
      `Expected a block starting with -----BEGIN ${isKey ? 'PRIVATE KEY' : 'CERTIFICATE'}-----.`);
  }
  const value = step.fileRole === 'pem' ? `file:${path}` : path;
  return { value, findings: certificateFindings(step, path, text, answers, cwd) };
}

function certificateFindings(step: Step, path: string, text: string, answers: WizardAnswers, cwd: string): Finding[] {
  try {
    if (step.fileRole === 'wildcard-key') {
      const certificateFile = String(answers[WILDCARD_CERTIFICATE_FILE] ?? '');
      if (!certificateFile) return [];
      const domain = answers.cloud_helm_ingress_wildcard_domain;
      return loadSuppliedWildcard({
        certificateFile, keyFile: path, fixOrder: false, domain: typeof domain === 'string' && domain ? domain : undefined,
      }).findings;
    }
    if (step.fileRole !== 'pem' || !step.variable) return [];
    const values: Record<string, unknown> = { [step.variable.name]: text };
    const files: Record<string, string> = { [step.variable.name]: path };
    if (step.variable.type === 'pem-key') {
      // The key is checked against the certificate given just before it.
      const certificate = pemOf(answers.cluster_issuer_ca_certificate, cwd);
      if (certificate) values.cluster_issuer_ca_certificate = certificate;
      const certificateFile = answers.cluster_issuer_ca_certificate;
      if (typeof certificateFile === 'string' && certificateFile.startsWith('file:')) files.cluster_issuer_ca_certificate = resolve(cwd, certificateFile.slice(5));
    }
    const name = step.variable.name;
    return pemVariableFindings(values, new Date(), files).filter((f) => f.variable === undefined || f.variable === name);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return [{ rule: 'certificate-check', variable: step.variable?.name ?? step.id, severity: 'warning', message: `The certificate checks could not run: ${redact(message)}` }];
  }
}

/** The PEM text of an answer given inline or as `file:PATH`. */
export function pemOf(value: AnswerValue | undefined, cwd: string): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  if (!value.startsWith('file:')) return value;
  try {
    return readRegularFileSync(resolve(cwd, value.slice(5)), { what: 'the PEM file' });
  } catch {
    return undefined;
  }
}

function problem(variable: string, message: string, advice: string): FileCheck {
  return { findings: [{ rule: 'file-input', variable, severity: 'error', message, advice }] };
}
