/** What validation, certificate checks and the inventory lint return: one problem, with its fix. */
export type Severity = 'error' | 'warning' | 'info';

/** The mark before a finding, in every front-end. */
export const SEVERITY_MARK: Record<Severity, string> = { error: 'x', warning: '!', info: 'i' };

export interface Finding {
  /** Stable rule id, e.g. `acme-email-required`; the doctor reports it as `inventory.<rule>`. */
  rule: string;
  /** The inventory variable (or answers key) concerned, when there is one. */
  variable?: string;
  severity: Severity;
  /** What is wrong, naming the input. Never contains a secret value. */
  message: string;
  /** What to do about it. */
  advice?: string;
}

export const hasErrors = (findings: Finding[]) => findings.some((f) => f.severity === 'error');
