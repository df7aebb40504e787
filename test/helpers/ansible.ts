/**
 * Real Ansible as the judge of what cloudgate writes: the value of one variable as Ansible loads it
 * from a vars file (`ansible localhost -m debug -a var=NAME -e @FILE`), templating and vault included.
 */
import { execFile } from 'node:child_process';
import { missingToolMessage } from './tools.js';

export interface AnsibleReadOptions {
  vaultPasswordFile?: string;
  timeoutMs?: number;
}

/** The value Ansible sees for `name` in `file`; rejects with Ansible's output when it cannot load it. */
export function ansibleValue(file: string, name: string, options: AnsibleReadOptions = {}): Promise<unknown> {
  const args = ['localhost', '-m', 'debug', '-a', `var=${name}`, '-e', `@${file}`];
  if (options.vaultPasswordFile) args.push('--vault-password-file', options.vaultPasswordFile);
  const env = {
    ...process.env,
    ANSIBLE_LOCALHOST_WARNING: 'false',
    ANSIBLE_INVENTORY_UNPARSED_WARNING: 'false',
    ANSIBLE_NOCOLOR: '1',
  };
  return new Promise((resolve, reject) => {
    execFile(
      'ansible',
      args,
      { env, timeout: options.timeoutMs ?? 60_000, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        if (error?.code === 'ENOENT') return reject(new Error(missingToolMessage('ansible', 'ansible-core')));
        if (error) return reject(new Error(`ansible failed (${error.code}): ${stderr || stdout}`));
        // The ad-hoc output is `localhost | SUCCESS => {JSON}`.
        const json = stdout.slice(stdout.indexOf('=>') + 2);
        try {
          resolve((JSON.parse(json) as Record<string, unknown>)[name]);
        } catch {
          reject(new Error(`unexpected ansible output: ${stdout}`));
        }
      },
    );
  });
}

/**
 * One host's variables as Ansible's inventory reads them from the platform's layout: `hosts.yml` with
 * `group_vars/` and `host_vars/` beside it (`ansible-inventory -i INVENTORY --host HOST`).
 */
export function ansibleInventoryHost(
  inventory: string,
  host: string,
  options: AnsibleReadOptions = {},
): Promise<Record<string, unknown>> {
  const args = ['-i', inventory, '--host', host];
  if (options.vaultPasswordFile) args.push('--vault-password-file', options.vaultPasswordFile);
  const env = { ...process.env, ANSIBLE_NOCOLOR: '1', ANSIBLE_INVENTORY_UNPARSED_WARNING: 'false' };
  return new Promise((resolve, reject) => {
    execFile(
      'ansible-inventory',
      args,
      { env, timeout: options.timeoutMs ?? 60_000, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        if (error?.code === 'ENOENT') return reject(new Error(missingToolMessage('ansible-inventory', 'ansible-core')));
        if (error) return reject(new Error(`ansible-inventory failed (${error.code}): ${stderr || stdout}`));
        try {
          resolve(JSON.parse(stdout) as Record<string, unknown>);
        } catch {
          reject(new Error(`unexpected ansible-inventory output: ${stdout}`));
        }
      },
    );
  });
}
