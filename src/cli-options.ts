/**
 * Every command's flags, environment variables and examples, in one table: the parser's options and
 * the `--help` text are both generated from it, so they cannot drift apart.
 */
import type { ParseArgsConfig } from 'node:util';
import { closest } from './core/closest.js';
import { GROUPS } from './core/areas/groups.js';
import { NAMING_PROFILES } from './core/config/vocabulary.js';

export interface Flag {
  readonly name: string;
  /** The value's placeholder in help (`PATH`); absent for an on/off flag. */
  readonly value?: string;
  readonly multiple?: boolean;
  /**
   * The values it accepts: the parser refuses any other, in the one wording of "not one of these"
   * (core/closest.ts), and the command gets the value typed as one of them.
   */
  readonly choices?: readonly string[];
  /** Its value is a comma-separated list (`--only tls,kube`), each item one of `choices`. */
  readonly list?: boolean;
  readonly description: string;
}

/** A word or argument that is no flag: `certificate NAMESPACE/NAME` of `cloudgate status certificate NAMESPACE/NAME`. */
export interface Operand {
  /** A fixed word (the kind of object, in cmctl's words), or the argument's placeholder. */
  readonly name: string;
  readonly word?: boolean;
  /** Given once or more. */
  readonly repeatable?: boolean;
  readonly description: string;
}

export interface CommandOptions {
  readonly summary: string;
  /** The arguments after the command, in order; none when absent (the command takes flags only). */
  readonly operands?: readonly Operand[];
  readonly flags: readonly Flag[];
  readonly env: readonly (readonly [name: string, description: string])[];
  readonly examples: readonly string[];
}

// Every table below is `as const`: cli-flags.ts derives each command's typed flags from the literal names.
const NETWORK = [
  { name: 'config', value: 'FILE', description: 'settings file (sections signin, discovery, certificate, tls)' },
  { name: 'ca-file', value: 'PEM', description: 'trust these CA certificates too (also OS_CACERT)' },
  { name: 'timeout', value: 'SECONDS', description: 'deadline of each request and check, 0.1 to 3600 (default 10)' },
  { name: 'insecure', description: 'do not verify TLS certificates (say so wherever you report the result)' },
  { name: 'allow-http', description: 'allow plain http:// URLs (local test servers)' },
  { name: 'verbose', description: 'show why checks were skipped and each request (secrets masked)' },
] as const satisfies readonly Flag[];

const VAULT = [
  {
    name: 'vault-password-file',
    value: 'FILE',
    multiple: true,
    description: 'Ansible Vault password: read vaulted values, write secrets vaulted',
  },
  {
    name: 'vault-id',
    value: 'LABEL@FILE',
    multiple: true,
    description: 'Ansible Vault id and its password file (instead of the above)',
  },
] as const satisfies readonly Flag[];

/** The doctor's report formats: the one list `--format`, its renderers and its help are written from. */
export const DOCTOR_FORMATS = ['text', 'json', 'junit', 'prometheus'] as const;

/** What `cloudgate token` prints. */
export const TOKEN_FORMATS = ['value', 'env', 'json'] as const;

const NAMES = {
  name: 'names',
  value: NAMING_PROFILES.join('|'),
  choices: NAMING_PROFILES,
  description:
    "the words the deployment reads: platform (the default: the platform's own names) or spec (the neutral aliases)",
} as const satisfies Flag;

const INVENTORY = {
  name: 'inventory',
  value: 'PATH',
  description: 'the inventory file or folder (default inventory/group_vars/all/certificates.yml)',
} as const satisfies Flag;

const CLOUD = {
  name: 'cloud',
  value: 'NAME',
  description: "take the sign-in chain's settings from this clouds.yaml entry (also OS_CLOUD)",
} as const satisfies Flag;

/** The settings the doctor's checks read, each also from --config. */
const SETTINGS = [
  {
    name: 'only',
    value: 'GROUPS',
    list: true,
    choices: GROUPS,
    description: `only these groups, comma-separated: ${GROUPS.join(',')}`,
  },
  {
    name: 'certificate',
    value: 'FILE',
    multiple: true,
    description: 'group certificate: a certificate file to check (PEM or DER)',
  },
  { name: 'key', value: 'FILE', description: 'group certificate: its private key' },
  { name: 'domain', value: 'D', description: 'group certificate: the domain it must cover' },
  { name: 'project', value: 'P', description: 'group signin: the project to scope the token to' },
  CLOUD,
  { name: 'issuer-url', value: 'URL', description: 'group discovery: the OIDC issuer of keyless DNS credentials' },
  { name: 'token-file', value: 'FILE', description: 'group discovery: a service-account token to exchange' },
  { name: 'audience', value: 'A', description: 'group discovery: the audience the token is exchanged for' },
  {
    name: 'endpoint',
    value: 'HOST[:PORT][@ADDRESS]',
    multiple: true,
    description: 'group tls: an endpoint to check (@ADDRESS: connect there)',
  },
  { name: 'context', value: 'NAME', description: 'group kube: the kubeconfig context' },
] as const satisfies readonly Flag[];

const DOCTOR_ENV = [
  ['CLOUDGATE_<SETTING>', 'any --config setting, e.g. CLOUDGATE_BROKER_URL, CLOUDGATE_ISSUER_URL'],
  ['CLOUDGATE_<SETTING>_FILE', 'a file holding a secret setting, e.g. CLOUDGATE_CLIENT_SECRET_FILE'],
  ['OS_CACERT', 'a CA bundle to trust (as --ca-file)'],
  ['OS_CLOUD', 'as --cloud: an entry of clouds.yaml (./, ~/.config/openstack/, /etc/openstack/)'],
  ['KUBECONFIG', "kubectl's configuration (group kube)"],
  [
    'CLOUDGATE_CHILD_ENV',
    'more variable names kubectl and vault scripts may see (e.g. AWS_PROFILE for a login plugin)',
  ],
  [
    'ANSIBLE_VAULT_PASSWORD_FILE',
    'a vault password file, added to the options (also ANSIBLE_VAULT_IDENTITY_LIST and ansible.cfg, as Ansible reads them)',
  ],
  ['NO_COLOR', 'no colour in the output'],
] as const;

/** The flags of the cmctl-like tools (status, inspect, renew): how they reach the cluster and what they print. */
const KUBE_TOOL = [
  {
    name: 'context',
    value: 'NAME',
    description: 'the kubeconfig context (default: the current one; also CLOUDGATE_CONTEXT)',
  },
  { name: 'json', description: 'print the result as JSON' },
  { name: 'timeout', value: 'SECONDS', description: 'deadline of each kubectl call, 0.1 to 3600 (default 10)' },
  { name: 'verbose', description: 'show each kubectl call on stderr (secrets masked)' },
] as const satisfies readonly Flag[];

const KUBE_TOOL_ENV = [
  ['KUBECONFIG', "kubectl's configuration"],
  ['CLOUDGATE_CONTEXT', 'as --context'],
  ['CLOUDGATE_KUBECTL', 'the kubectl to run (default: kubectl on PATH)'],
  ['CLOUDGATE_CHILD_ENV', 'more variable names kubectl may see (e.g. AWS_PROFILE for a login plugin)'],
] as const;

const OBJECT = 'NAMESPACE/NAME';

const TABLE = {
  setup: {
    summary: 'Ask about certificates and write the inventory (and a TLS Secret manifest)',
    flags: [
      INVENTORY,
      { name: 'answers', value: 'FILE', description: 'take every answer from this YAML file: no questions' },
      { name: 'dry-run', description: 'show the review and the diff, write nothing' },
      { name: 'yes', description: 'write without asking for confirmation' },
      { name: 'plain', description: 'ask line by line instead of the full-screen walkthrough' },
      { name: 'secret-manifest', value: 'FILE', description: 'where to write the TLS Secret of a supplied wildcard' },
      {
        name: 'namespace',
        value: 'NS',
        multiple: true,
        description: 'a namespace for that TLS Secret (repeat; default openstack)',
      },
      {
        name: 'fix-order',
        description:
          'put a chain in the wrong order in order (supplied wildcard: leaf first; CA chain: issuer first) instead of refusing it',
      },
      { name: 'apply', description: 'kubectl apply the TLS Secret manifest once written' },
      { name: 'ca-file', value: 'PEM', description: 'trust these CA certificates when judging a supplied chain' },
      ...VAULT,
      NAMES,
    ],
    env: [
      [
        'ANSIBLE_VAULT_PASSWORD_FILE',
        'a vault password file, added to the options (also ANSIBLE_VAULT_IDENTITY_LIST and ansible.cfg, as Ansible reads them)',
      ],
      ['KUBECONFIG', "kubectl's configuration (--apply)"],
      ['NO_COLOR', 'no colour'],
      ['TERM', 'TERM=dumb: plain ASCII'],
      ['CI', 'set: never ask questions'],
    ],
    examples: [
      'cloudgate setup',
      'cloudgate setup --answers answers.yml --inventory inventory/group_vars/all/certificates.yml --dry-run',
    ],
  },
  doctor: {
    summary: 'Run live checks: inventory, certificates, sign-in chain, OIDC discovery, TLS, cluster',
    flags: [
      INVENTORY,
      ...SETTINGS,
      { name: 'json', description: 'print the results as JSON (as --format json)' },
      {
        name: 'format',
        value: DOCTOR_FORMATS.join('|'),
        choices: DOCTOR_FORMATS,
        description: 'output format (default text)',
      },
      { name: 'output', value: 'FILE', description: 'write the report to FILE instead of stdout' },
      { name: 'strict', description: 'exit 1 on warnings too' },
      { name: 'list-checks', description: 'print every check id and exit' },
      { name: 'probe-update', description: 'group acme: write (and delete) one TXT record to prove DNS updates work' },
      ...NETWORK,
      ...VAULT,
      NAMES,
    ],
    env: DOCTOR_ENV,
    examples: [
      'cloudgate doctor',
      'cloudgate doctor --only signin --config cloudgate.yml',
      'cloudgate doctor --only signin --cloud mycloud --config broker.yml',
      'cloudgate doctor --only tls --endpoint identity.example.com --endpoint compute.example.com:8774@10.0.0.5',
    ],
  },
  serve: {
    summary: 'Run the doctor on an interval and serve its results as Prometheus metrics',
    flags: [
      { name: 'listen', value: 'HOST:PORT', description: 'where to serve /metrics (default 127.0.0.1:9464)' },
      { name: 'interval', value: 'DURATION', description: 'time between rounds, e.g. 60s, 5m (default 5m)' },
      INVENTORY,
      ...SETTINGS,
      ...NETWORK,
      ...VAULT,
    ],
    env: DOCTOR_ENV,
    examples: ['cloudgate serve --listen 0.0.0.0:9464 --interval 5m --config /etc/cloudgate/cloudgate.yml'],
  },
  regenerate: {
    summary: 'Re-ask the issuer, rewrite the inventory, delete the stale certificate secrets',
    flags: [
      INVENTORY,
      { name: 'answers', value: 'FILE', description: 'take the new issuer from this YAML file: no questions' },
      { name: 'dry-run', description: 'show what would be written and deleted, change nothing' },
      { name: 'yes', description: 'change and delete without asking for confirmation' },
      { name: 'plain', description: 'ask line by line instead of the full-screen walkthrough' },
      { name: 'context', value: 'NAME', description: 'the kubeconfig context' },
      {
        name: 'namespace',
        value: 'NS',
        multiple: true,
        description: "where to look for certificate secrets (repeat; default the platform's)",
      },
      { name: 'wait', description: 'follow the Certificates until they are issued again' },
      { name: 'wait-timeout', value: 'SECONDS', description: 'how long --wait waits (default 300)' },
      ...VAULT,
      NAMES,
    ],
    env: [
      ['KUBECONFIG', "kubectl's configuration"],
      [
        'ANSIBLE_VAULT_PASSWORD_FILE',
        'a vault password file, added to the options (also ANSIBLE_VAULT_IDENTITY_LIST and ansible.cfg, as Ansible reads them)',
      ],
      ['NO_COLOR', 'no colour'],
    ],
    examples: ['cloudgate regenerate --dry-run', 'cloudgate regenerate --answers issuer.yml --yes --wait'],
  },
  oidc: {
    summary: 'Print or write what keyless DNS credentials (route53 auth kubernetes) need the operator to create',
    flags: [
      { name: 'issuer-url', value: 'URL', description: "the cluster's OIDC issuer" },
      { name: 'account', value: 'ID', description: 'the cloud account that trusts it' },
      { name: 'role-name', value: 'NAME', description: 'the role to create' },
      { name: 'partition', value: 'P', description: 'the cloud partition (default aws)' },
      { name: 'audience', value: 'A', description: 'the audience the role trusts in the token' },
      { name: 'thumbprint', value: 'HEX', description: "the issuer certificate's thumbprint (else fetched)" },
      { name: 'jwks-file', value: 'FILE', description: 'the JSON Web Key Set to publish (else read from the cluster)' },
      { name: 'namespace', value: 'NS', description: "the service account's namespace (default cert-manager)" },
      { name: 'service-account', value: 'NAME', description: 'the service account whose token is exchanged' },
      INVENTORY,
      { name: 'out', value: 'DIR', description: 'write the documents and policies into DIR' },
      { name: 'json', description: 'print the result as JSON' },
      ...NETWORK,
    ],
    env: [
      ['CLOUDGATE_<SETTING>', 'any --config setting'],
      ['OS_CACERT', 'a CA bundle to trust (as --ca-file)'],
    ],
    examples: ['cloudgate oidc --issuer-url https://oidc.example.com --account 123456789012 --out oidc/'],
  },
  token: {
    summary: 'Run the sign-in chain and print only the project-scoped token',
    flags: [
      { name: 'project', value: 'P', description: 'the project to scope the token to' },
      CLOUD,
      {
        name: 'format',
        value: TOKEN_FORMATS.join('|'),
        choices: TOKEN_FORMATS,
        description: 'print the token alone, as OS_TOKEN=..., or as JSON (default value)',
      },
      ...NETWORK,
    ],
    env: [
      ['CLOUDGATE_<SETTING>', 'any signin setting, e.g. CLOUDGATE_BROKER_URL, CLOUDGATE_CLIENT_SECRET_FILE'],
      ['OS_CACERT', 'a CA bundle to trust (as --ca-file)'],
      ['OS_CLOUD', 'as --cloud'],
      ['XDG_CACHE_HOME', "where the identity service's flavour is remembered"],
    ],
    examples: ['export OS_TOKEN=$(cloudgate token --config cloudgate.yml --project demo)'],
  },
  render: {
    summary:
      "Print the Kubernetes objects the platform's deployment creates from the inventory, and where it would stop, be refused or never issue",
    flags: [
      INVENTORY,
      { name: 'json', description: 'print the objects, Helm releases and findings as JSON' },
      NAMES,
      ...VAULT,
      {
        name: 'engine',
        value: 'auto|role|model',
        description:
          "auto (default): the platform's own role when it is installed here, else cloudgate's model; role or model: only that",
      },
    ],
    env: [
      ['ANSIBLE_VAULT_PASSWORD_FILE', 'as --vault-password-file (with the options, as Ansible adds it)'],
      [
        'ANSIBLE_VAULT_IDENTITY_LIST',
        'vault ids LABEL@FILE, comma-separated, tried before --vault-id (also vault_identity_list in ansible.cfg)',
      ],
      [
        'ANSIBLE_CONFIG',
        'the ansible.cfg read for vault_password_file and vault_identity_list (else ./ansible.cfg, ~/.ansible.cfg)',
      ],
      ['CLOUDGATE_RENDER_ENGINE', 'as --engine'],
      ['CLOUDGATE_ROLE_TIMEOUT', "seconds the platform's role may run in check mode (default 120)"],
    ],
    examples: [
      'cloudgate render --inventory inventory',
      'cloudgate render --inventory inventory/hosts.ini --vault-password-file ~/.vault-pass --json',
    ],
  },
  status: {
    summary:
      "Show one Certificate as cert-manager left it (as cmctl status certificate), with cloudgate's verdict and fix",
    operands: [
      { name: 'certificate', word: true, description: 'the kind of object: a cert-manager Certificate' },
      { name: OBJECT, description: 'the Certificate, e.g. openstack/keystone-api' },
    ],
    flags: KUBE_TOOL,
    env: KUBE_TOOL_ENV,
    examples: [
      'cloudgate status certificate openstack/keystone-api',
      'cloudgate status certificate openstack/atmosphere-wildcard --json',
    ],
  },
  inspect: {
    summary:
      "Decode a TLS secret: its chain in order, expiry, names, whether the key belongs, cert-manager's annotations (as cmctl inspect secret)",
    operands: [
      { name: 'secret', word: true, description: 'the kind of object: a Secret holding tls.crt (and tls.key)' },
      { name: OBJECT, description: 'the Secret, e.g. openstack/keystone-api-certs' },
    ],
    flags: KUBE_TOOL,
    env: KUBE_TOOL_ENV,
    examples: [
      'cloudgate inspect secret openstack/keystone-api-certs',
      'cloudgate inspect secret auth-system/wildcard-certs --json',
    ],
  },
  renew: {
    summary: 'Make cert-manager issue Certificates again now, as cmctl renew does (nothing is deleted)',
    operands: [
      {
        name: OBJECT,
        repeatable: true,
        description: 'a Certificate to renew, e.g. openstack/keystone-api (several may be given)',
      },
    ],
    flags: [
      ...KUBE_TOOL,
      {
        name: 'force',
        description: "renew even while the ACME CA's rate limit holds (each new order counts against it)",
      },
    ],
    env: KUBE_TOOL_ENV,
    examples: [
      'cloudgate renew openstack/keystone-api',
      'cloudgate renew openstack/nova-api openstack/glance-api --json',
    ],
  },
  schema: {
    summary: 'Print the JSON Schema of the inventory variables (for editors)',
    flags: [NAMES],
    env: [],
    examples: ['cloudgate schema > cloudgate-inventory.schema.json'],
  },
} as const satisfies Record<string, CommandOptions>;

/** The table as literal types: cli-flags.ts derives each command's typed flags from it. */
export type OptionsTable = typeof TABLE;
export type CommandName = keyof OptionsTable;

/** The same table, looked up by any name (help, completion, "did you mean"). */
export const COMMAND_OPTIONS: Readonly<Record<string, CommandOptions>> = TABLE;

export type ParseOptions = NonNullable<ParseArgsConfig['options']>;

export function parseOptionsOf(command: CommandOptions): ParseOptions {
  return Object.fromEntries(
    command.flags.map((f) => [
      f.name,
      f.value ? { type: 'string' as const, ...(f.multiple ? { multiple: true } : {}) } : { type: 'boolean' as const },
    ]),
  );
}

const flagText = (f: Flag) => `--${f.name}${f.value ? ` ${f.value}` : ''}${f.multiple ? ' (repeatable)' : ''}`;

/** `certificate NAMESPACE/NAME`, `NAMESPACE/NAME...`: the operands as the usage line writes them. */
export function operandsText(command: CommandOptions): string {
  return (command.operands ?? []).map((o) => `${o.name}${o.repeatable ? '...' : ''}`).join(' ');
}

export function usageLine(name: string, command?: CommandOptions): string {
  const operands = command ? operandsText(command) : '';
  return `cloudgate ${name}${operands ? ` ${operands}` : ''} [options]   (cloudgate ${name} --help lists them)`;
}

export function commandHelp(name: string, command: CommandOptions): string {
  const width = Math.min(40, Math.max(...command.flags.map((f) => flagText(f).length)));
  const flags = command.flags.map((f) => {
    const left = flagText(f);
    return left.length > width
      ? `  ${left}\n  ${' '.repeat(width)}  ${f.description}`
      : `  ${left.padEnd(width)}  ${f.description}`;
  });
  const envWidth = Math.max(0, ...command.env.map(([n]) => n.length));
  const operands = command.operands ?? [];
  const operandWidth = Math.max(0, ...operands.map((o) => o.name.length));
  return [
    command.summary,
    '',
    `Usage: cloudgate ${name}${operands.length ? ` ${operandsText(command)}` : ''} [options]`,
    '',
    ...(operands.length
      ? ['Arguments:', ...operands.map((o) => `  ${o.name.padEnd(operandWidth)}  ${o.description}`), '']
      : []),
    'Options:',
    ...flags,
    `  ${'-h, --help'.padEnd(width)}  show this help`,
    ...(command.env.length
      ? ['', 'Environment:', ...command.env.map(([n, d]) => `  ${n.padEnd(envWidth)}  ${d}`)]
      : []),
    '',
    'Examples:',
    ...command.examples.map((e) => `  ${e}`),
    '',
  ].join('\n');
}

/** The flag closest to a mistyped one, for "did you mean". */
export function closestFlag(command: CommandOptions, given: string): string | undefined {
  return closest(
    given,
    command.flags.map((f) => f.name),
  );
}
