/** What `cloudgate render` produces: the objects, the webhook Helm releases, and what is wrong. */
import type { Severity } from '../findings.js';

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; [key: string]: unknown };
  [field: string]: unknown;
}

export interface RenderedObject {
  object: KubeObject;
  /** The variables whose values made this object (for the comment above it). */
  from: string[];
  /** The variable that names the object, when one does (a refused name is reported on it). */
  nameFrom?: string;
  /** The platform's own ClusterIssuer, or the wildcard Certificate (the drift check compares them). */
  part?: 'issuer' | 'wildcard';
}

export interface HelmRelease {
  name: string;
  namespace: string;
  /** Where the chart is installed from on the hosts. */
  chart: string;
  values: Record<string, unknown>;
}

export interface RenderFinding {
  /** The variable concerned, or the object (`ClusterIssuer/atmosphere`) when no one variable is. */
  variable: string;
  severity: Severity;
  /** The rule (docs/checks.md): `platform-needs`, `template-syntax`, `cert-manager-webhook`, `never-issues`, ... */
  rule?: string;
  message: string;
  advice?: string;
  /** For a stop on a template: the variable it names that is undefined (the role's own message names that one). */
  cause?: string;
}

export interface Rendered {
  objects: RenderedObject[];
  helm: HelmRelease[];
  findings: RenderFinding[];
}
