// Types of chain.mjs (plain JavaScript so the bench can use it without a build).
export interface KeystoneEnv {
  caFile: string;
  identityUrl: string;
  authUrl: string;
  brokerUrl: string;
  brokerIssuer: string;
  realm: string;
  clientId: string;
  clientSecret: string;
  idpTokenUrl: string;
  idpClients: Record<string, { secret: string; subject: string }>;
  idpClientId: string;
  orphanClientId: string;
  tokenEndpoint: string;
  brokerClients: Record<string, { secret: string }>;
  brokerUsers: Record<string, { password: string; subject: string }>;
  domains: Record<'default' | 'rig', string>;
  idpId: string;
  protocol: string;
  projects: Record<'alpha' | 'beta' | 'gamma' | 'rig-alpha', string>;
  member: string[];
  computeUrl: string;
  adminPasswordFile: string;
  secretFiles: { broker: string; idp: string };
  configFile: string;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

export function loadEnv(stateDir: string): KeystoneEnv;
export function call(
  env: KeystoneEnv,
  method: string,
  url: string,
  options?: { headers?: Record<string, string>; body?: string },
): Promise<Answer>;
export function idpToken(env: KeystoneEnv, clientId?: string): Promise<string>;
export function brokerToken(env: KeystoneEnv, subjectToken: string): Promise<string>;
export function unscopedToken(env: KeystoneEnv, bearer: string, idp?: string): Promise<string>;
export function scopeBody(token: string, projectId: string): string;
export function adminToken(env: KeystoneEnv): Promise<string>;
