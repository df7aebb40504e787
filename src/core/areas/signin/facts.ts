/**
 * What --verbose and --json show of a sign-in step (`details` in --json), typed: the request asked,
 * the path that served it, facts about the tokens (never a token), the projects, the mapping's rules.
 * Each step fills the members it knows.
 */
import type { TokenFacts } from './token-facts.js';
import type { Project, TriedPath } from './identity.js';
import type { RuleVerdict } from './claims.js';

export type ProjectSummary = Pick<Project, 'id' | 'name' | 'domain_id'>;

export interface SigninFacts {
  url?: string;
  status?: number;
  /** The server's own words about a refusal. */
  said?: string;
  /** The path that served (standard Keystone or the platform's documented one), and the one tried first. */
  path?: string;
  flavour?: 'platform' | 'keystone';
  tried?: TriedPath;
  /** The HTTP client's kind of failure. */
  kind?: string;
  /** The OAuth error code of a refusal. */
  error?: string;
  /** What the broker's OpenID configuration offers. */
  grant_types_supported?: string[];
  /** The token obtained or sent, decoded (never the token itself). */
  claims?: TokenFacts | string[];
  expires_in?: number;
  expires_at?: string;
  refresh_token?: 'received' | 'none';
  subject_issuer?: string;
  /** The subject token of a refused exchange, decoded. */
  subject_token_claims?: TokenFacts;
  grant?: string;
  endpoint_from?: string;
  token_type?: string;
  user?: string;
  token_issuer?: string;
  working_protocol?: string;
  v3_url?: string;
  projects?: ProjectSummary[];
  candidates?: Pick<Project, 'id' | 'domain_id'>[];
  chosen?: Pick<Project, 'id' | 'name'>;
  did_you_mean?: string;
  project?: Pick<Project, 'id' | 'name'>;
  domain?: { id?: string; name?: string };
  services?: string[];
  regions?: unknown[];
  /** signin.claims: the mapping and how each rule fares against the broker token's claims. */
  mapping?: string;
  claim_prefix?: string;
  rules?: RuleVerdict[];
  missing?: string[];
  mapping_read?: boolean;
  claims_present?: string[];
  claims_absent?: string[];
  authorization_bytes?: number;
  limit?: number;
  largest_claims?: { name: string; bytes: number }[];
  subject_audience?: { client: string; aud: string[]; azp?: string; internal?: boolean };
}

/** Facts without empty members, so --verbose and --json show only what is known. */
export function compact(facts: SigninFacts): SigninFacts {
  return Object.fromEntries(Object.entries(facts).filter(([, v]) => v !== undefined && v !== null && v !== ''));
}
