/** docs/settings.md, generated from the settings each area declares (a test keeps the page in step). */
import { envNamesOf, type SettingSpec } from './setting-schema.js';
import { SETTING_AREAS } from './setting-specs/index.js';

const cell = (text: string) => text.replaceAll('|', '\\|');
const code = (items: readonly string[]) => items.map((i) => `\`${i}\``).join(', ');

function row(spec: SettingSpec): string {
  const config = spec.section
    ? code([
        `${spec.section}.${spec.name}`,
        ...(spec.oldSections ?? []).map((s) => `${s}.${spec.name}`),
        ...(spec.type === 'secret' ? [`${spec.section}.${spec.name}_file`] : []),
      ])
    : '';
  const env = code([
    ...envNamesOf(spec),
    ...(spec.type === 'secret' ? [`CLOUDGATE_${spec.name.toUpperCase()}_FILE`] : []),
  ]);
  const type = spec.choices ? `one of ${spec.choices.join(', ')}` : spec.list ? `list of ${spec.type}` : spec.type;
  return `| \`${spec.name}\` | ${type} | ${spec.default !== undefined ? `\`${spec.default}\`` : ''} | ${spec.flag && spec.type !== 'secret' ? `\`--${spec.flag}\`` : ''} | ${env} | ${config} | ${spec.clouds ? 'yes' : ''} | ${spec.saved ? 'yes' : ''} | ${cell(spec.doc)} |`;
}

export function settingsDocument(): string {
  const sections = SETTING_AREAS.map(({ title, settings }) =>
    [
      `## ${title}`,
      '',
      '| Setting | Type | Default | Flag | Environment | `--config` | clouds.yaml | saved | What it is |',
      '|---|---|---|---|---|---|---|---|---|',
      ...settings.map(row),
      '',
    ].join('\n'),
  );
  return `<!-- Generated from src/core/config/setting-specs/ by settingsDocument(): edit those, then run UPDATE_DOCS=1 npx vitest run test/unit/core/config/settings-doc.test.ts -->
# Settings

[Back to the README](../README.md).

Every setting of the live commands (\`doctor\`, \`serve\`, \`token\`, \`oidc\`) is declared once, by the area
that reads it, and read by one resolver, in this order; the first that gives a value wins:

1. the flag (never for a secret: the shell history and the process list would show it);
2. the environment: \`CLOUDGATE_<NAME>\`, then the OpenStack client's own variables where it has one;
3. the clouds.yaml entry named by \`--cloud\` or \`OS_CLOUD\` (column clouds.yaml);
4. the section of the \`--config\` file;
5. for a secret, a file holding it: \`CLOUDGATE_<NAME>_FILE\` or \`<name>_file\` in the section;
6. the saved settings of \`cloudgate config set\` (column saved);
7. the default.

Where a value came from is part of what the resolver returns: \`doctor\` and \`token\` say on stderr which
settings came from clouds.yaml, the environment or the config file (never a value of a secret), and a
\`doctor\` run says where it found its inventory, cloud, kube context and CA file when no flag gave them.

## Saved settings: \`cloudgate config\`

\`\`\`sh
cloudgate config set inventory ~/cloud/inventory   # a path is kept absolute
cloudgate config set cloud mycloud                 # must be an entry of clouds.yaml (or secure.yaml)
cloudgate config set context prod                  # must be a context of the kubeconfig
cloudgate config set ca_file ~/cloud/ca.pem        # must hold PEM certificates
cloudgate config get inventory                     # the value, or nothing
cloudgate config list                              # every key as key=value
cloudgate config unset cloud
\`\`\`

The file is \`config.yml\` in \`$CLOUDGATE_CONFIG_DIR\`, else \`$XDG_CONFIG_HOME/cloudgate\` (when that is an
absolute path), else \`~/.config/cloudgate\`: a YAML mapping of the keys below, written with mode 0600 in a
folder of mode 0700, replaced whole (never half-written) and never through a link another user planted.
A key cloudgate does not keep is refused with the closest one suggested; a cloud or context that the
files here do not know is refused too (a typo would break every run), and kept with a warning when there
is no clouds.yaml or kubeconfig yet.

## What a bare \`cloudgate doctor\` finds

Without flags, \`doctor\` starts from, in this order: the saved settings and the environment
(\`OS_CLOUD\`, \`CLOUDGATE_INVENTORY\`, \`OS_CACERT\` ...), then what the neighbouring tools name:

- the inventory Ansible would use: \`ANSIBLE_INVENTORY\`, else \`inventory\` in \`[defaults]\` of the first
  ansible.cfg of Ansible's own order (\`ANSIBLE_CONFIG\`, \`./ansible.cfg\` unless the current folder is
  writable by anyone, \`~/.ansible.cfg\`, \`/etc/ansible/ansible.cfg\`); the first path of its list that
  exists, relative to the ansible.cfg's folder; a hosts file stands for its folder, where \`group_vars/\` is;
- else \`inventory/group_vars/all/certificates.yml\` in the current folder;
- kubectl's current context (\`KUBECONFIG\`'s files, the first that sets one, else \`~/.kube/config\`).

It prints on stderr what it took from where (\`Inventory: /home/op/cloud/inventory (from ansible.cfg
/home/op/cloud/ansible.cfg).\`). When nothing at all names something to check (no inventory, no cloud, no
kube context, no \`--config\`, no setting of a group) and no \`--only\` was given, it says so, lists how to
start, and exits 2 rather than reporting a row of skipped checks as a success.

${sections.join('\n')}
The \`acme:\` section of \`--config\` (and \`CLOUDGATE_<NAME>\`, \`<name>_file\` for a secret) may also give any
inventory variable of the DNS-01 providers instead of the inventory (a vaulted or templated one): their
names are those of [variables.md](variables.md).
`;
}
