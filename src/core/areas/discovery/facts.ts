/** What --verbose and --json show of the discovery checks (`details` in --json), one shape per kind of check. */
import type { TokenVerdict } from './token.js';
import type { KeySetAssessment } from '../../kube/service-account-issuer.js';

/** A document fetched without credentials. */
export interface FetchFacts {
  url: string;
  status?: number;
  /** The HTTP client's kind of failure (`tls-unknown-ca`, `timeout`, ...). */
  kind?: string;
  contentType?: string;
  fields?: string[];
}

export interface KeySetFacts {
  url: string;
  contentType: string;
  keys: KeySetAssessment['keys'];
  note?: string;
}

/** A value compared with what it must be. */
export interface IssuerFacts {
  expected: string;
  actual: string;
  differences?: string[];
}

export type TokenCheckFacts = { source: string } & TokenVerdict['facts'];

/** The role assumption and the DNS read of discovery.sts. */
export interface StsFacts {
  source?: string;
  roleArn?: string;
  iss?: string;
  sub?: string;
  aud?: string[];
  stsEndpoint?: string;
  subject?: string;
  dnsEndpoint?: string;
  dnsAction?: string;
  action?: string;
  status?: number;
  code?: string;
  awsMessage?: string;
  url?: string;
  kind?: string;
}

/** The issuer flags of kubeadm-config and of each control plane's API server. */
export interface ApiserverFlagsFacts {
  kubeadmConfig: Record<string, string[] | null> | null;
  controlPlanes: Record<string, Record<string, string[] | null>>;
}
