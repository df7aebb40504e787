/**
 * Every rule of the certificate variables as a function of the variable values: `validate(values)` returns the
 * findings (rule id, variable, severity, message naming the variable, advice). Values are what the
 * inventory holds (unrelated keys are ignored). Secret values are never quoted in a message.
 */
import { tsigFindings } from './tsig-key.js';
import type { ValueSources } from './value-sources.js';
import { branchWords } from './branch.js';
import { closest } from '../closest.js';
import { messageOf } from '../errors.js';
import { isRecord } from '../records.js';
import { isDnsSubdomain } from '../kube/names.js';
import { isJinja, isTagged, isVaulted } from '../inventory/ansible-tagged.js';
import type { Finding } from '../findings.js';
import { NOT_CHECKED, finding, isSet, str } from './rule-kit.js';
import { typeRules } from './value-rules.js';
import { countryRule } from './format-rules.js';
import { pemVariableFindings } from '../tls/variable-rules.js';
import {
  ANNOTATION_KEYS,
  INGRESS_ROLE_VARIABLES,
  ISSUER_TYPES,
  OWNED_PREFIXES,
  ROUTE53_AUTH_MODES,
  ISSUER_TYPE_VALUES,
  SOLVER_VALUES,
  VARIABLES,
  applies,
  choicesOf,
  platformOfName,
  variable,
  type Choices,
  type Variable,
} from './variables.js';

export interface ValidateOptions {
  now?: Date;
  /** Where values were read from (the answers' `file:PATH`): findings name the file. */
  sources?: ValueSources;
}

type Values = Record<string, unknown>;

/**
 * Values cloudgate can check: a vaulted value or a Jinja expression becomes NOT_CHECKED (with an info
 * finding saying so), an `!unsafe` value its literal text.
 */
function checkable(values: Values): { values: Values; findings: Finding[] } {
  const out: Values = { ...values };
  const findings: Finding[] = [];
  for (const row of VARIABLES) {
    const value = values[row.name];
    if (isVaulted(value)) {
      out[row.name] = NOT_CHECKED;
      findings.push(
        finding(
          'not-checked',
          'info',
          row.name,
          `${row.name} is not checked (vaulted).`,
          'cloudgate checks a vaulted value only when it can decrypt it.',
        ),
      );
    } else if (isTagged(value)) {
      out[row.name] = value.text;
    } else if (isJinja(value)) {
      out[row.name] = NOT_CHECKED;
      findings.push(
        finding(
          'not-checked',
          'info',
          row.name,
          `${row.name} is not checked (a Jinja expression, known only when Ansible runs).`,
          'Run "cloudgate doctor" against the rendered values, or check the variable it refers to.',
        ),
      );
    }
  }
  return { values: out, findings };
}

export { isSet, isEncodedBundle, BASE64_BUNDLE } from './rule-kit.js';
export { formatRule, hostPortRule } from './value-rules.js';

export function validate(input: Values, options: ValidateOptions = {}): Finding[] {
  const { values, findings: notChecked } = checkable(input);
  // A choice that is not checked is no branch: only the rules of every branch apply.
  const choices = choicesOf(
    Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v === NOT_CHECKED ? '(not checked)' : v])),
  );
  const findings: Finding[] = [
    ...notChecked,
    ...unknownNames(values),
    ...typeRules(values),
    ...requiredRules(values, choices),
    ...selectionRules(values, choices),
    ...acmeRules(values, choices),
    ...providerRules(values, choices),
    ...(choices.solver === 'rfc2136' ? tsigFindings(values, options.sources?.tsigKey) : []),
    ...venafiRules(values, choices),
    ...annotationRules(values),
    ...unusedBranch(values, choices),
  ];
  try {
    findings.push(...pemVariableFindings(values, options.now ?? new Date(), options.sources?.files));
  } catch (error) {
    findings.push(
      finding(
        'pem-check',
        'warning',
        undefined,
        `The certificate checks of the PEM variables could not run: ${messageOf(error)}`,
      ),
    );
  }
  return findings;
}

// ---- names ----------------------------------------------------------------------------------

function unknownNames(values: Values): Finding[] {
  return Object.keys(values)
    .filter(
      (name) =>
        OWNED_PREFIXES.some((p) => name.startsWith(p)) && !variable(name) && !INGRESS_ROLE_VARIABLES.includes(name),
    )
    .map((name) => {
      const guess = closestName(name);
      return finding(
        'unknown-variable',
        'warning',
        name,
        `${name} is not a variable the platform knows; it is ignored.`,
        guess ? `Did you mean ${guess}?` : 'Remove it, or run "cloudgate schema" for the list of variables.',
      );
    });
}

const VARIABLE_NAMES = VARIABLES.map((row) => row.name);

/** The variable meant by an unknown name: a neutral word translated first, else the one rule of closest.ts. */
export function closestName(name: string): string | undefined {
  const translated = platformOfName(name);
  if (translated !== name && variable(translated)) return translated;
  return closest(translated, VARIABLE_NAMES);
}

// ---- required ----------------------------------------------------------------------------------

/**
 * A variable the branch needs that the inventory leaves out: the role stops there. One it defines but
 * leaves empty is cert-manager's to judge (the render checks the objects as its webhook does: an empty
 * hosted zone name or route53 zone id is accepted, an empty server refused); only the ACME email,
 * which cert-manager never checks, is said here.
 */
function requiredRules(values: Values, choices: Choices): Finding[] {
  return VARIABLES.filter(
    (row) => row.required && applies(row, choices) && !chosenByBlank(row, values) && !isSet(values[row.name]),
  ).flatMap((row) => {
    const defined = values[row.name] !== undefined;
    if (defined && row.name !== 'cluster_issuer_acme_email') return [];
    if (defined) {
      return [
        finding(
          'acme-email-empty',
          'warning',
          row.name,
          `${row.name} is ${values[row.name] === null ? 'null' : 'empty'}: cert-manager accepts it and registers the ACME account without a contact address, so expiry and revocation notices reach nobody.`,
          `Set ${row.name}: ${row.help}.`,
        ),
      ];
    }
    return [
      finding(
        row.name === 'cluster_issuer_acme_email' ? 'acme-email-required' : 'required',
        'error',
        row.name,
        `${row.name} is required ${branchLabel(row, choices)} but is not set.`,
        `Set ${row.name}: ${row.help}.`,
      ),
    ];
  });
}

/**
 * A choosing variable defined but blank or null (`cluster_issuer_type: ""`) is not its default: the role
 * includes `type//main.yml` (or `solver/.yml`, or fails its auth assert) and stops there, so nothing of the
 * branch below it runs and none of that branch's variables is required.
 */
function chosenByBlank(row: Variable, values: Values): boolean {
  const blank = (name: string) => {
    const value = values[name];
    return value === null || (typeof value === 'string' && value.trim() === '');
  };
  const c = row.appliesWhen;
  if (!c) return false;
  if (blank('cluster_issuer_type')) return true;
  if ((c.solver || c.auth) && blank('cluster_issuer_acme_solver')) return true;
  return Boolean(c.auth) && blank('cluster_issuer_acme_route53_auth');
}

function branchLabel(row: Variable, choices: Choices): string {
  const c = row.appliesWhen;
  if (c?.auth) return `with route53 auth "${choices.auth}"`;
  if (c?.solver) return `with cluster_issuer_acme_solver: ${choices.solver}`;
  if (c?.issuer) return `with cluster_issuer_type: ${choices.issuer}`;
  return 'always';
}

/** The issuer types whose certificates chain to a CA the operator chose. */
const TRUSTED = ISSUER_TYPE_VALUES.filter((t) => ISSUER_TYPES[t].trusted);

// ---- endpoint selection ------------------------------------------------------------------------

function selectionRules(values: Values, choices: Choices): Finding[] {
  const out: Finding[] = [];
  const secretName = str(values.openstack_helm_ingress_secret_name);
  if (isSet(secretName) && choices.issuer !== 'none' && ISSUER_TYPE_VALUES.includes(choices.issuer)) {
    out.push(
      finding(
        'secret-name-requires-none',
        'error',
        'openstack_helm_ingress_secret_name',
        `openstack_helm_ingress_secret_name is set (supplied wildcard certificate) but cluster_issuer_type is "${choices.issuer}".`,
        'A supplied certificate needs cluster_issuer_type: none; otherwise remove openstack_helm_ingress_secret_name.',
      ),
    );
  }
  if (choices.issuer === 'none' && !isSet(secretName)) {
    out.push(
      finding(
        'none-without-certificate',
        'warning',
        'cluster_issuer_type',
        'cluster_issuer_type is none but openstack_helm_ingress_secret_name is not set: nothing would issue certificates.',
        'Supply a wildcard certificate (cloudgate setup) and set openstack_helm_ingress_secret_name, or choose an issuer.',
      ),
    );
  }
  if (secretName && !isDnsSubdomain(secretName)) {
    out.push(
      finding(
        'secret-name',
        'error',
        'openstack_helm_ingress_secret_name',
        `openstack_helm_ingress_secret_name is "${secretName}", which is not a valid Kubernetes secret name.`,
        'Use lower-case letters, digits, "-" and ".", starting and ending with a letter or digit.',
      ),
    );
  }
  if (choices.issuer === 'self-signed') {
    out.push(
      finding(
        'self-signed',
        'warning',
        'cluster_issuer_type',
        'cluster_issuer_type is self-signed: clients will not trust the endpoints; for development and testing only.',
        `For production choose ${TRUSTED.join(', ')}, or supply a wildcard certificate.`,
      ),
    );
  }
  return out;
}

// ---- ACME --------------------------------------------------------------------------------------

function acmeRules(values: Values, choices: Choices): Finding[] {
  if (choices.issuer !== 'acme') return [];
  const out: Finding[] = [];
  if (isSet(values.openstack_helm_ingress_wildcard_domain) && choices.solver === 'http01') {
    out.push(
      finding(
        'wildcard-needs-dns01',
        'error',
        'cluster_issuer_acme_solver',
        `A wildcard certificate (*.${(str(values.openstack_helm_ingress_wildcard_domain) ?? '').replace(/^\*\./, '')}) cannot be issued with the HTTP-01 challenge.`,
        'ACME issues wildcard certificates only through DNS-01: set cluster_issuer_acme_solver to your DNS provider.',
      ),
    );
  }
  if (values.cluster_issuer_acme_private_ca === true && !isSet(values.cluster_issuer_acme_server)) {
    out.push(
      finding(
        'acme-private-ca-without-server',
        'warning',
        'cluster_issuer_acme_private_ca',
        'cluster_issuer_acme_private_ca is true but cluster_issuer_acme_server is not set (a public ACME CA needs no custom CA).',
        'Set cluster_issuer_acme_server to your internal ACME server, or remove cluster_issuer_acme_private_ca.',
      ),
    );
  }
  return out;
}

// ---- DNS providers -----------------------------------------------------------------------------

const ROLE_ARN = /^arn:aws[a-z-]*:iam::\d{12}:role\/[\w+=,.@/-]{1,512}$/;

function providerRules(values: Values, choices: Choices): Finding[] {
  if (choices.issuer !== 'acme') return [];
  const out: Finding[] = [];
  if (choices.solver === 'route53' && ROUTE53_AUTH_MODES.includes(choices.auth)) {
    const arn = str(values.cluster_issuer_acme_route53_role_arn);
    if (choices.auth === 'kubernetes' && !arn) {
      out.push(
        finding(
          'route53-role-arn-required',
          'error',
          'cluster_issuer_acme_route53_role_arn',
          'cluster_issuer_acme_route53_role_arn is required with route53 auth "kubernetes" but is not set.',
          'Set the role to assume, e.g. arn:aws:iam::123456789012:role/cert-manager-dns01 ("cloudgate oidc" prints what to create).',
        ),
      );
    }
    // The role passes the ARN whatever the auth mode (after static keys too, it is assumed).
    if (arn && !ROLE_ARN.test(arn)) {
      out.push(
        finding(
          'route53-role-arn',
          'error',
          'cluster_issuer_acme_route53_role_arn',
          `cluster_issuer_acme_route53_role_arn is "${arn}", which is not a role ARN.`,
          'The form is arn:<partition>:iam::<12-digit account>:role/<path/name>, e.g. arn:aws:iam::123456789012:role/cert-manager-dns01.',
        ),
      );
    }
    if (choices.auth === 'kubernetes') {
      out.push(
        finding(
          'route53-kubernetes-prerequisites',
          'info',
          'cluster_issuer_acme_route53_auth',
          'route53 auth "kubernetes" needs cert-manager CRDs 1.15.0 or newer and a public OIDC issuer for the cluster.',
          'Run "cloudgate oidc" for the steps and "cloudgate doctor" to check them.',
        ),
      );
    }
  }
  if (choices.solver === 'cloudflare') {
    const email = str(values.cluster_issuer_acme_cloudflare_email);
    if (email && email.toLowerCase() === str(values.cluster_issuer_acme_email)?.toLowerCase()) {
      out.push(
        finding(
          'cloudflare-email-redundant',
          'info',
          'cluster_issuer_acme_cloudflare_email',
          'cluster_issuer_acme_cloudflare_email is the same as cluster_issuer_acme_email; it is only needed when they differ.',
          'Remove cluster_issuer_acme_cloudflare_email.',
        ),
      );
    }
  }
  if (choices.solver === 'godaddy') {
    out.push(
      finding(
        'godaddy-limits',
        'warning',
        'cluster_issuer_acme_solver',
        'The godaddy solver works only for GoDaddy accounts with 10 or more domains (or a Discount Domain Club subscription): GoDaddy refuses its API to the others.',
        'Check the account qualifies, or choose another DNS provider. The platform installs the godaddy webhook itself (cloudgate render shows its Helm release).',
      ),
    );
  }
  if (choices.solver === 'infoblox') {
    out.push(
      finding(
        'infoblox-webhook',
        'info',
        'cluster_issuer_acme_solver',
        'The infoblox solver works through a webhook, which the platform installs with Helm from its own chart (cloudgate render shows the release).',
        "Make sure the chart is where cluster_issuer_acme_infoblox_helm_chart_path says, and that the cluster can reach the grid's API.",
      ),
    );
  }
  return out;
}

// ---- Venafi ------------------------------------------------------------------------------------

function venafiRules(values: Values, choices: Choices): Finding[] {
  if (choices.issuer !== 'venafi') return [];
  const token = isSet(values.cluster_issuer_venafi_access_token);
  const user = isSet(values.cluster_issuer_venafi_username);
  const password = isSet(values.cluster_issuer_venafi_password);
  const v = 'cluster_issuer_venafi_access_token';
  if (token && (user || password)) {
    return [
      finding(
        'venafi-auth',
        'error',
        v,
        'The Venafi issuer has both an access token and username/password; exactly one method must be set.',
        'Keep cluster_issuer_venafi_access_token (recommended) and remove the username and password.',
      ),
    ];
  }
  if (!token && !user && !password) {
    return [
      finding(
        'venafi-auth',
        'error',
        v,
        'The Venafi issuer has no credentials: set an access token, or username and password.',
        'Set cluster_issuer_venafi_access_token (recommended).',
      ),
    ];
  }
  if (!token && user !== password) {
    const missing = user ? 'cluster_issuer_venafi_password' : 'cluster_issuer_venafi_username';
    return [
      finding(
        'venafi-auth',
        'error',
        missing,
        `${missing} is not set; username and password go together.`,
        `Set ${missing}, or use cluster_issuer_venafi_access_token (recommended) instead.`,
      ),
    ];
  }
  if (!token) {
    return [
      finding(
        'venafi-legacy-auth',
        'warning',
        'cluster_issuer_venafi_username',
        'The Venafi issuer uses username and password, which newer versions of Venafi TPP are phasing out.',
        'Switch to cluster_issuer_venafi_access_token.',
      ),
    ];
  }
  return [];
}

// ---- annotations -------------------------------------------------------------------------------

function annotationRules(values: Values): Finding[] {
  const out: Finding[] = [];
  const current = values.atmosphere_ingress_annotations;
  const old = values.ingress_global_annotations;
  if (isSet(old)) {
    out.push(
      isSet(current)
        ? finding(
            'annotations-conflict',
            'error',
            'ingress_global_annotations',
            'Both ingress_global_annotations (deprecated) and atmosphere_ingress_annotations are set.',
            'Merge the entries into atmosphere_ingress_annotations and remove ingress_global_annotations.',
          )
        : finding(
            'deprecated-variable',
            'warning',
            'ingress_global_annotations',
            'ingress_global_annotations is deprecated.',
            'Rename it to atmosphere_ingress_annotations (same entries).',
          ),
    );
  }
  for (const name of ['atmosphere_ingress_annotations', 'ingress_global_annotations']) {
    const map = values[name];
    if (!isSet(map) || !isRecord(map)) continue;
    for (const [key, value] of Object.entries(map)) {
      if (!ANNOTATION_KEYS.includes(key)) {
        const suffix = key.split('/').pop() ?? key;
        const guess = ANNOTATION_KEYS.find((k) => k.endsWith(`/${suffix}`)) ?? closest(key, ANNOTATION_KEYS);
        out.push(
          finding(
            'annotation-key',
            'error',
            name,
            `${name} has the key "${key}", which is not a certificate subject annotation.`,
            guess ? `Did you mean ${guess}?` : `Allowed keys: ${ANNOTATION_KEYS.join(', ')}.`,
          ),
        );
      } else if (typeof value !== 'string' || value.trim() === '') {
        out.push(
          finding(
            'annotation-value',
            'error',
            name,
            `${name}["${key}"] must be a non-empty text value.`,
            'Quote the value, e.g. "Example Org"; several values are comma-separated in one string.',
          ),
        );
      } else if (key.endsWith('/subject-countries')) {
        out.push(...countryRule(name, key, value));
      }
    }
  }
  return out;
}

// ---- left-over branches ------------------------------------------------------------------------

/** Variables set for a branch that is not chosen: the platform ignores them, the operator may not expect that. */
function unusedBranch(values: Values, choices: Choices): Finding[] {
  if (!ISSUER_TYPE_VALUES.includes(choices.issuer) || !SOLVER_VALUES.includes(choices.solver)) return [];
  if (choices.solver === 'route53' && !ROUTE53_AUTH_MODES.includes(choices.auth)) return [];
  const reportedElsewhere = new Set(['openstack_helm_ingress_secret_name']);
  return VARIABLES.filter(
    (row) => row.appliesWhen && !reportedElsewhere.has(row.name) && !applies(row, choices) && isSet(values[row.name]),
  ).map((row) =>
    finding(
      'unused-variable',
      'warning',
      row.name,
      `${row.name} is set but not used with ${branchWords(choices)}.`,
      `Remove it (cloudgate setup removes it for you), or change the choice it belongs to.`,
    ),
  );
}
