/** What --verbose and --json show of each kube check (`details` in --json), one shape per check. */
import type { NamingProfile } from '../../config/variables.js';
import type { IssuerMechanism, PlatformIssuerType } from '../../kube/live-issuer.js';
import type { CertificateVerdict } from './certificates.js';
import type { ComponentState } from './health.js';
import type { IngressFinding } from './ingress-secrets.js';
import type { CopyFinding } from './wildcard.js';

/** kube.certificates: one row per Certificate judged, with the cause's code. */
export interface CertificatesFacts {
  certificates: CertificateVerdict[];
  namespaces: string[];
}

export interface ContextFacts {
  context: string;
  kubeconfig: string;
  contexts?: string[];
}

export interface HealthFacts {
  components: ComponentState[];
  versions?: (string | undefined)[];
}

export interface IngressSecretsFacts {
  ingresses: number;
  namespaces: string[];
  findings: IngressFinding[];
}

export interface DriftFacts {
  differences: string[];
  cluster?: string;
  inventory?: string;
  names: NamingProfile;
  namesFrom?: string;
  namingMismatch?: true;
}

type IssuerKind = PlatformIssuerType | IssuerMechanism;

export interface IssuerFacts {
  name: string;
  type: IssuerKind;
  ready?: string;
  reason?: string;
  message?: string;
  cause?: string;
  observedGeneration?: number;
  generation?: number;
}

export interface IssuersFacts {
  issuers: { issuer: string; type: IssuerKind; status: 'ok' | 'warn' | 'fail'; summary: string; cause?: string }[];
}

export interface CrdFacts {
  crd: string;
  versionLabel: string | null;
  serviceAccountRefInSchema: boolean;
  schemaKeepsUnknownFields: boolean;
}

export interface PermissionFacts {
  command: string;
  answer?: string;
}

export interface WebhookFacts {
  namespace: string;
  dryRun: boolean;
  step?: string;
  cause?: string;
}

export interface WildcardFacts {
  secret: string;
  copies: string[];
  findings: CopyFinding[];
  chain?: { subject: string; notAfter: string }[];
}
