/**
 * The environment a child process gets: only the variables it needs, never cloudgate's own secrets
 * (CLOUDGATE_*_SECRET, OS_PASSWORD, OS_CLIENT_SECRET, tokens, cloud keys). kubectl and a vault password
 * script are programs the operator chose, but what they start (a kubeconfig exec plugin, a script's
 * helpers) inherits what they got, and the secrets a run was given are for the services cloudgate calls.
 *
 * Every child: PATH, HOME, USER, LOGNAME, SHELL, TMPDIR, TZ, TERM, LANG, LANGUAGE, LC_*, the proxy
 * variables (HTTP_PROXY, HTTPS_PROXY, NO_PROXY, ALL_PROXY, either case), SSL_CERT_FILE, SSL_CERT_DIR,
 * XDG_CONFIG_HOME, XDG_CACHE_HOME, XDG_RUNTIME_DIR, DISPLAY, WAYLAND_DISPLAY, BROWSER (a login plugin
 * opens a browser).
 * kubectl also: KUBECONFIG, KUBECACHEDIR, KUBECTL_*.
 * A vault password script also: ANSIBLE_*, VAULT_* (HashiCorp Vault: VAULT_ADDR, VAULT_TOKEN, ...),
 * GNUPGHOME, GPG_TTY, GPG_AGENT_INFO, PASSWORD_STORE_*, SSH_AUTH_SOCK, DBUS_SESSION_BUS_ADDRESS (pass,
 * gpg and keyring helpers).
 * ansible-playbook (render running the platform's role) gets the same, PYTHONPATH, PYTHONUSERBASE,
 * VIRTUAL_ENV, and CLOUDGATE_RENDER_RECORD (the run's record file, no secret).
 * More names for every child: CLOUDGATE_CHILD_ENV=NAME,NAME (a kubeconfig exec plugin needing
 * AWS_PROFILE, say); a name that looks like a secret (SECRET, PASSWORD, TOKEN, KEY, CREDENTIAL) or
 * cloudgate's or OpenStack's (CLOUDGATE_*, OS_*) is not passed that way.
 */

export type ChildKind = 'kubectl' | 'vault-script' | 'ansible';

const COMMON = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'TMPDIR',
  'TZ',
  'TERM',
  'LANG',
  'LANGUAGE',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'ALL_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'all_proxy',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'XDG_CONFIG_HOME',
  'XDG_CACHE_HOME',
  'XDG_RUNTIME_DIR',
  'DISPLAY',
  'WAYLAND_DISPLAY',
  'BROWSER',
]);
const COMMON_PREFIXES = ['LC_'];

const BY_KIND: Record<ChildKind, { names: Set<string>; prefixes: string[] }> = {
  kubectl: { names: new Set(['KUBECONFIG', 'KUBECACHEDIR']), prefixes: ['KUBECTL_'] },
  'vault-script': {
    names: new Set(['GNUPGHOME', 'GPG_TTY', 'GPG_AGENT_INFO', 'SSH_AUTH_SOCK', 'DBUS_SESSION_BUS_ADDRESS']),
    prefixes: ['ANSIBLE_', 'VAULT_', 'PASSWORD_STORE_'],
  },
  // ansible-playbook running the platform's role for `cloudgate render`: what a vault password script
  // needs (Ansible runs it), Python's own settings, and the record file of the run.
  ansible: {
    names: new Set([
      'GNUPGHOME',
      'GPG_TTY',
      'GPG_AGENT_INFO',
      'SSH_AUTH_SOCK',
      'DBUS_SESSION_BUS_ADDRESS',
      'PYTHONPATH',
      'PYTHONUSERBASE',
      'VIRTUAL_ENV',
      'PYTHONDONTWRITEBYTECODE',
      'CLOUDGATE_RENDER_RECORD',
    ]),
    prefixes: ['ANSIBLE_', 'VAULT_', 'PASSWORD_STORE_'],
  },
};

const LOOKS_SECRET = /SECRET|PASSW|TOKEN|KEY|CREDENTIAL|^CLOUDGATE_|^OS_/i;

/** Extra names from CLOUDGATE_CHILD_ENV, without those that look like secrets. */
function extraNames(env: NodeJS.ProcessEnv): Set<string> {
  return new Set(
    (env.CLOUDGATE_CHILD_ENV ?? '')
      .split(',')
      .map((n) => n.trim())
      .filter((n) => n && !LOOKS_SECRET.test(n)),
  );
}

export function childEnvironment(env: NodeJS.ProcessEnv, kind: ChildKind): NodeJS.ProcessEnv {
  const own = BY_KIND[kind];
  const extra = extraNames(env);
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    const allowed =
      COMMON.has(name) ||
      own.names.has(name) ||
      extra.has(name) ||
      [...COMMON_PREFIXES, ...own.prefixes].some((p) => name.startsWith(p));
    if (allowed) out[name] = value;
  }
  return out;
}
