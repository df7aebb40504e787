/**
 * The names of what the platform creates. The platform's own names carry product words (cert-manager,
 * route53, venafi, ...); with the neutral variable names (the default profile) the same names follow the
 * neutral words. cert-manager's API itself (kinds, fields, the `cert-manager` namespace) is never renamed.
 */
export type NamingProfile = 'spec' | 'platform';

export const NAMING_PROFILES: readonly NamingProfile[] = ['spec', 'platform'];

interface Words {
  certmgr: string;
  clouddnsa: string;
  clouddnsb: string;
  dnsc: string;
  dnsd: string;
  dnse: string;
  commercialca: string;
}

const WORDS: Record<NamingProfile, Words> = {
  spec: { certmgr: 'certmgr', clouddnsa: 'clouddnsa', clouddnsb: 'clouddnsb', dnsc: 'dnsc', dnsd: 'dnsd', dnse: 'dnse', commercialca: 'commercialca' },
  platform: { certmgr: 'cert-manager', clouddnsa: 'azuredns', clouddnsb: 'route53', dnsc: 'cloudflare', dnsd: 'godaddy', dnse: 'infoblox', commercialca: 'venafi' },
};

export { CERT_MANAGER_NAMESPACE, PLATFORM_ISSUER, PLATFORM_NAMESPACE } from '../kube/platform.js';
/** The ClusterIssuer that always exists, whatever the issuer type. */
export const SELF_SIGNED_ISSUER = 'self-signed';
/** Wildcard mode: the one Certificate (and its secret) every OpenStack ingress uses. */
export const WILDCARD_CERTIFICATE = 'atmosphere-wildcard';

/** The default name of every object the platform creates, for one naming profile. */
export function objectNames(profile: NamingProfile) {
  const w = WORDS[profile];
  const webhook = (provider: string, solverName: string) => ({
    release: `${w.certmgr}-webhook-${solverName}`,
    groupName: `${provider}.${w.certmgr}.atmosphere.dev`,
    solverName,
    role: `webhook-${solverName}:secret-reader`,
    serviceAccount: `${w.certmgr}-webhook-${solverName}`,
  });
  return {
    acmeAccountKey: `${w.certmgr}-issuer-account-key`,
    clouddnsaSecret: `${w.certmgr}-issuer-${w.clouddnsa}-credentials`,
    tsigSecret: `${w.certmgr}-issuer-tsig-secret-key`,
    clouddnsbSecret: `${w.certmgr}-issuer-${w.clouddnsb}-credentials`,
    clouddnsbServiceAccount: `${w.certmgr}-${w.clouddnsb}`,
    dnscSecret: `${w.dnsc}-api-token`,
    dnsd: { ...webhook(w.dnsd, w.dnsd), secret: `${w.dnsd}-api-key` },
    dnse: { ...webhook(w.dnse, `${w.dnse}-wapi`), secret: `${w.certmgr}-issuer-${w.dnse}-credentials` },
    commercialcaSecret: `${w.certmgr}-${w.commercialca}-credentials`,
    caSecret: `${w.certmgr}-issuer-ca`,
    selfSignedCa: { certificate: 'self-signed-ca', secret: `${w.certmgr}-selfsigned-ca` },
    /** The certificate manager's own service account, which requests tokens in keyless mode. */
    controllerServiceAccount: 'cert-manager',
  };
}

export type ObjectNames = ReturnType<typeof objectNames>;
