/**
 * The forms of values whose rule is the provider's own, never stricter: Azure's ids (GUIDs; a tenant
 * may also be given by its domain, as Azure's sign-in takes it), AWS region codes (the shape every
 * partition's region pattern shares, so a region opened after this release still passes), a Route 53
 * hosted zone id that is a domain name, a wildcard domain with a final dot, and a certificate
 * subject's country (an ISO 3166 two-letter code).
 */
import { DOMAIN } from './formats.js';
import type { Finding } from '../findings.js';
import { finding } from './rule-kit.js';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/**
 * An AWS region code: lower-case words joined by hyphens, ending in a number (us-east-1, us-gov-west-1,
 * cn-north-1, us-isob-east-1, eusc-de-east-1). Each partition's pattern is `<prefix>-<word>-<number>`;
 * the prefixes grow as regions open, so they are not listed.
 */
const AWS_REGION = /^[a-z]{2,}(-[a-z]+)+-\d+$/;

const AZURE_IDS: Record<string, string> = {
  cluster_issuer_acme_azuredns_client_id: 'the Application (client) ID of the app registration',
  cluster_issuer_acme_azuredns_subscription_id: 'the Subscription ID of the subscription holding the DNS zone',
  cluster_issuer_acme_azuredns_tenant_id: 'the Directory (tenant) ID',
};

/** What is wrong with the form of a text value the provider reads as an id, a region or a zone id. */
export function providerFormatRule(name: string, value: string): Finding[] {
  if (name in AZURE_IDS) return azureIdRule(name, value);
  if (name === 'cluster_issuer_acme_route53_region') return awsRegionRule(name, value);
  if (name === 'cluster_issuer_acme_route53_hosted_zone_id') return hostedZoneIdRule(name, value);
  return [];
}

function azureIdRule(name: string, value: string): Finding[] {
  if (GUID.test(value)) return [];
  // Azure's sign-in also takes a tenant by one of its domains (contoso.onmicrosoft.com).
  if (name === 'cluster_issuer_acme_azuredns_tenant_id' && DOMAIN.test(value)) return [];
  const braced = /^\{(.*)\}$/.exec(value);
  return [
    finding(
      'azure-id',
      'error',
      name,
      `${name} is "${value}", which is not a GUID.`,
      braced && GUID.test(braced[1])
        ? `Write it without the braces: ${name}: ${braced[1]}`
        : `Give ${AZURE_IDS[name]}, a GUID such as 00000000-0000-0000-0000-000000000000 (az account show shows the subscription and tenant ids).`,
    ),
  ];
}

function awsRegionRule(name: string, value: string): Finding[] {
  if (AWS_REGION.test(value)) return [];
  if (AWS_REGION.test(value.toLowerCase())) {
    return [
      finding(
        'aws-region',
        'error',
        name,
        `${name} is "${value}"; AWS region codes are lower case.`,
        `Write ${name}: ${value.toLowerCase()}`,
      ),
    ];
  }
  const zone = /^([a-z]{2,}(-[a-z]+)+-\d+)[a-z]$/.exec(value);
  return [
    finding(
      'aws-region',
      'error',
      name,
      `${name} is "${value}", which is not an AWS region code.`,
      zone
        ? `"${value}" is an availability zone; its region is ${zone[1]}: write ${name}: ${zone[1]}`
        : 'Give the region code, e.g. us-east-1, eu-central-1 or us-gov-west-1 (aws configure get region shows yours).',
    ),
  ];
}

function hostedZoneIdRule(name: string, value: string): Finding[] {
  const bare = value.replace(/\.$/, '');
  if (!bare.includes('.') || !DOMAIN.test(bare)) return [];
  return [
    finding(
      'route53-hosted-zone-id',
      'error',
      name,
      `${name} is "${value}", a domain name; it must be the hosted zone's id (e.g. Z1D633PJN98FT9).`,
      `Find it with: aws route53 list-hosted-zones-by-name --dns-name ${bare} --query 'HostedZones[0].Id' (the part after /hostedzone/); or leave ${name} empty and cert-manager looks the zone up.`,
    ),
  ];
}

/**
 * A wildcard domain with a final dot: the platform makes `*.<domain>` a Certificate's dnsName and each
 * `<service>.<domain>` an ingress host, and both refuse a final dot (Kubernetes host names are
 * DNS-1123 names without one, ACME servers refuse identifiers that end in a dot).
 */
export function trailingDotRule(name: string, value: string): Finding[] {
  if (!value.endsWith('.') || !DOMAIN.test(value.replace(/\.$/, ''))) return [];
  return [
    finding(
      'wildcard-domain',
      'error',
      name,
      `${name} is "${value}", which ends in a dot; ingress hosts and certificate names do not take one.`,
      `Write ${name}: ${value.replace(/\.$/, '')}`,
    ),
  ];
}

/** Codes ISO 3166 reserves for uses other than a country (user-assigned ones, EU, UN), that a certificate's country cannot be. */
const NOT_A_COUNTRY = /^(AA|Q[M-Z]|X[A-JL-WYZ]|ZZ|EU|EZ|UN)$/;
const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/**
 * The countries of a `subject-countries` annotation (comma-separated, as cert-manager splits it): each
 * an ISO 3166 two-letter code. XK (Kosovo) and XX (no country applies) are the codes CAs use beyond them.
 */
export function countryRule(variable: string, key: string, value: string): Finding[] {
  const out: Finding[] = [];
  for (const raw of value.split(',')) {
    const given = raw.trim();
    const code = given.toUpperCase();
    const bad = (advice: string) =>
      out.push(
        finding(
          'subject-country',
          'error',
          variable,
          `${variable}["${key}"] has the country "${given}", which is not an ISO 3166 two-letter country code.`,
          advice,
        ),
      );
    if (!/^[A-Z]{2}$/.test(code)) {
      const guess = countryOfName(given);
      bad(guess ? `Write the code: ${guess}` : 'Give two-letter codes, comma-separated, e.g. DE or US,CA.');
      continue;
    }
    if (code === 'XX') continue;
    const canonical = Intl.getCanonicalLocales(`und-${code}`)[0].slice(4);
    if (canonical !== code && /^[A-Z]{2}$/.test(canonical)) {
      bad(`The code is ${canonical}${code === 'UK' ? " (the United Kingdom's ISO code)" : ' (the code in use now)'}.`);
    } else if (NOT_A_COUNTRY.test(code) || regionNames.of(code) === undefined) {
      bad('Give two-letter codes, comma-separated, e.g. DE or US,CA.');
    }
  }
  return out;
}

const isCurrent = (code: string) => Intl.getCanonicalLocales(`und-${code}`)[0] === `und-${code}`;

/** The code of a country written out ("Germany" → DE), when the name is exactly a region's English name. */
function countryOfName(name: string): string | undefined {
  if (name.length < 3) return undefined;
  for (let a = 65; a <= 90; a++) {
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      if (!NOT_A_COUNTRY.test(code) && isCurrent(code) && regionNames.of(code)?.toLowerCase() === name.toLowerCase())
        return code;
    }
  }
  return undefined;
}
