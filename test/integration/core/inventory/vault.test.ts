import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnsibleTagged } from '../../../../src/core/inventory/ansible-tagged.js';
import { UsageError } from '../../../../src/core/errors.js';
import { parseInventory, updateInventoryText } from '../../../../src/core/inventory/inventory.js';
import { clearSecretsForTests, redact } from '../../../../src/core/secrets.js';
import { decryptVault, encryptVault, parseVault, VaultError } from '../../../../src/core/inventory/vault.js';
import {
  NO_VAULT_OPTIONS,
  parseVaultId,
  readVaultPassword,
  vaultKeyringFromOptions,
} from '../../../../src/core/inventory/vault-options.js';
import { openVaulted, sealValues, vaultWriteFindings } from '../../../../src/core/inventory/vaulted-values.js';

const run = promisify(execFile);
const PASSWORD = 'correct horse battery staple';

// Made by the real ansible-vault 2.14 with the password above:
//   ansible-vault encrypt_string --vault-password-file pw 'tok-3xample-Secret' --name api_token
const ENCRYPT_STRING = `$ANSIBLE_VAULT;1.1;AES256
62333339306234363135636133663835333561383666393163633632383436343431353362396530
3436323961393961393262656230313364316137323236620a646261646566613039623164663564
31636338303031663932363235316239396333343161336334336430326533663466353333323731
3564323237613536610a633430313032383466623330323262623965313765333838643239326634
65363066386630616235383332323936333331643261333738353533663866386335`;
//   printf 'multi\nline: value\n' > plain; ansible-vault encrypt --vault-id prod@pw --output - plain
const LABELLED_FILE = `$ANSIBLE_VAULT;1.2;AES256;prod
37386230383035666137346461656338633762306135636266306634653435666435356666306238
3230666333333239633965646461316430363365646135300a643166376263323334643138336334
35636166333731393564613235633539376339616561656438323936623663386661303138626364
3833356438636566340a366362313263383636666135653635333837623138323666643666313535
63313137636439613135373262343430666232313030376263353733363437663735`;
//   ansible-vault encrypt_string --vault-password-file pw '0123456789abcdef' (a whole block of padding)
const ONE_BLOCK = `$ANSIBLE_VAULT;1.1;AES256
61633030616336646237396133363766653131633337316434653663363866343331316230393135
3036633237656639343461666430333534383838613337610a663739366161653435323534383834
30623930383737626234373232613631333737396636613632316566303730346364363639363766
3839616337313735330a666539613333363134663336613936623061353533336661316236313734
32616663386238363331653636623434386435656336343533393034646134383137`;

let dir: string;
let passwordFile: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloudgate-vault-'));
  passwordFile = join(dir, 'pw');
  await writeFile(passwordFile, `${PASSWORD}\n`, { mode: 0o600 });
});
afterAll(async () => {
  clearSecretsForTests();
  await rm(dir, { recursive: true, force: true });
});

describe('Ansible Vault format', () => {
  it('decrypts what the real ansible-vault made (encrypt_string, a labelled 1.2 file, a whole padding block)', () => {
    expect(decryptVault(ENCRYPT_STRING, PASSWORD)).toBe('tok-3xample-Secret');
    expect(decryptVault(LABELLED_FILE, PASSWORD)).toBe('multi\nline: value\n');
    expect(parseVault(LABELLED_FILE)).toMatchObject({ version: '1.2', label: 'prod' });
    expect(decryptVault(ONE_BLOCK, PASSWORD)).toBe('0123456789abcdef');
  });

  it('round-trips any text, with the header, 80-column lines and the known layout', () => {
    for (const text of [
      '',
      'x',
      '0123456789abcdef',
      'ümlaut ✓\nsecond line\n',
      '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n',
    ]) {
      const envelope = encryptVault(text, PASSWORD);
      expect(envelope.split('\n')[0]).toBe('$ANSIBLE_VAULT;1.1;AES256');
      expect(
        envelope
          .split('\n')
          .slice(1, -2)
          .every((line) => line.length === 80),
      ).toBe(true);
      expect(decryptVault(envelope, PASSWORD)).toBe(text);
      const { salt, hmac } = parseVault(envelope);
      expect([salt.length, hmac.length]).toEqual([32, 32]);
    }
    expect(encryptVault('x', PASSWORD, { label: 'prod' }).split('\n')[0]).toBe('$ANSIBLE_VAULT;1.2;AES256;prod');
    expect(encryptVault('x', PASSWORD, { label: 'default' }).split('\n')[0]).toBe('$ANSIBLE_VAULT;1.1;AES256');
  });

  it('is deterministic for a given salt and differs for fresh salts', () => {
    const salt = Buffer.alloc(32, 7);
    expect(encryptVault('same', PASSWORD, { salt })).toBe(encryptVault('same', PASSWORD, { salt }));
    expect(encryptVault('same', PASSWORD)).not.toBe(encryptVault('same', PASSWORD));
  });

  it('refuses a wrong password with an HMAC error, never garbage', () => {
    const error = catchError(() => decryptVault(ENCRYPT_STRING, 'wrong password'));
    expect(error).toBeInstanceOf(VaultError);
    expect((error as VaultError).reason).toBe('password');
    expect((error as Error).message).toMatch(/HMAC/);
  });

  it('refuses a tampered envelope: a changed ciphertext byte or HMAC', () => {
    const inner = Buffer.from(ENCRYPT_STRING.split('\n').slice(1).join(''), 'hex').toString('latin1');
    const [salt, hmac, ciphertext] = inner.split('\n') as [string, string, string];
    const flip = (hex: string) => hex.slice(0, -1) + (hex.endsWith('0') ? '1' : '0');
    for (const parts of [
      [salt, hmac, flip(ciphertext)],
      [salt, flip(hmac), ciphertext],
    ]) {
      const tampered = `$ANSIBLE_VAULT;1.1;AES256\n${Buffer.from(parts.join('\n')).toString('hex')}`;
      expect((catchError(() => decryptVault(tampered, PASSWORD)) as VaultError).reason).toBe('password');
    }
    expect((catchError(() => decryptVault('$ANSIBLE_VAULT;1.1;AES256\nzz', PASSWORD)) as VaultError).reason).toBe(
      'format',
    );
    expect((catchError(() => decryptVault('$ANSIBLE_VAULT;1.1;AES128\n00', PASSWORD)) as VaultError).reason).toBe(
      'format',
    );
  });

  it('writes what the real ansible-vault decrypts, labelled or not', async () => {
    const file = join(dir, 'ours.vault');
    await writeFile(file, encryptVault('from cloudgate: ✓', PASSWORD));
    const { stdout } = await run('ansible-vault', [
      'decrypt',
      '--vault-password-file',
      passwordFile,
      '--output',
      '-',
      file,
    ]);
    expect(stdout).toBe('from cloudgate: ✓');
    await writeFile(file, encryptVault('labelled', PASSWORD, { label: 'prod' }));
    const labelled = await run('ansible-vault', [
      'decrypt',
      '--vault-id',
      `prod@${passwordFile}`,
      '--output',
      '-',
      file,
    ]);
    expect(labelled.stdout).toBe('labelled');
  });
});

describe('vault passwords from options', () => {
  it('reads a password file as Ansible does (surrounding white space ignored) and the environment variable', async () => {
    const spaced = join(dir, 'spaced');
    await writeFile(spaced, `  ${PASSWORD} \r\n\n`, { mode: 0o600 });
    expect((await readVaultPassword(spaced, 'default', 'test')).toString()).toBe(PASSWORD);
    const keyring = await vaultKeyringFromOptions(NO_VAULT_OPTIONS, { ANSIBLE_VAULT_PASSWORD_FILE: spaced }, dir);
    expect(keyring?.open(ENCRYPT_STRING)).toBe('tok-3xample-Secret');
    expect(await vaultKeyringFromOptions(NO_VAULT_OPTIONS, {}, dir)).toBeUndefined();
  });

  it('runs an executable password file, and kills one that does not answer by its deadline', async () => {
    const script = join(dir, 'pass.sh');
    await writeFile(script, `#!/bin/sh\nprintf '%s\\n' '${PASSWORD}'\n`);
    await chmod(script, 0o700);
    expect((await readVaultPassword(script, 'default', 'test')).toString()).toBe(PASSWORD);
    const client = join(dir, 'vault-client.sh');
    await writeFile(client, `#!/bin/sh\n[ "$2" = prod ] && echo "${PASSWORD}" && exit 0\nexit 2\n`);
    await chmod(client, 0o700);
    expect((await readVaultPassword(client, 'prod', 'test')).toString()).toBe(PASSWORD);
    await expect(readVaultPassword(client, 'other', 'test')).rejects.toThrow(/vault id "other"/);
    const hang = join(dir, 'hang.sh');
    await writeFile(hang, '#!/bin/sh\nsleep 30 &\nwait\n');
    await chmod(hang, 0o700);
    // Its own deadline ended it, not the script's `sleep 30`: a wait for that would outlast this test's time.
    await expect(readVaultPassword(hang, 'default', 'test', 300)).rejects.toThrow(/did not finish within 0.3 s/);
  }, 15_000);

  it('refuses an empty password, a missing file and @prompt with usage errors that hold no content', async () => {
    const empty = join(dir, 'empty');
    await writeFile(empty, '\n', { mode: 0o600 });
    await expect(readVaultPassword(empty, 'default', 'test')).rejects.toThrow(/empty/);
    await expect(
      vaultKeyringFromOptions({ passwordFiles: [join(dir, 'missing')], ids: [] }, {}, dir),
    ).rejects.toBeInstanceOf(UsageError);
    expect(() => parseVaultId('prod@prompt')).toThrow(/does not prompt/);
    expect(parseVaultId('prod@/x/y')).toEqual({ label: 'prod', file: '/x/y' });
    expect(parseVaultId('/x/y')).toEqual({ label: 'default', file: '/x/y' });
  });

  it('opens with the password of the matching label first, and says which passwords failed', async () => {
    const other = join(dir, 'other');
    await writeFile(other, 'another password\n', { mode: 0o600 });
    const keyring = (await vaultKeyringFromOptions(
      { passwordFiles: [], ids: [`dev@${other}`, `prod@${passwordFile}`] },
      {},
      dir,
    ))!;
    expect(keyring.open(LABELLED_FILE)).toBe('multi\nline: value\n');
    expect(keyring.seal('x').text.split('\n')[0]).toBe('$ANSIBLE_VAULT;1.2;AES256;dev');
    const wrong = (await vaultKeyringFromOptions({ passwordFiles: [other], ids: [] }, {}, dir))!;
    expect(() => wrong.open(LABELLED_FILE)).toThrow(
      /HMAC mismatch with --vault-password-file .*other; it was encrypted for the vault id "prod"/,
    );
  });
});

describe('vault password scripts end at their exit, whatever they leave behind', () => {
  /** A script that starts a daemon (its own session, out of the script's group) holding its stdout. */
  async function daemonising(
    name: string,
    body: string,
  ): Promise<{ script: string; daemonPid: () => Promise<number> }> {
    const script = join(dir, name);
    const pidFile = join(dir, `${name}.daemon`);
    await writeFile(script, `#!/bin/sh\nsetsid sleep 120 &\necho $! > ${pidFile}\n${body}\n`, { mode: 0o700 });
    return { script, daemonPid: async () => Number(await readFile(pidFile, 'utf8')) };
  }
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const stopDaemon = (pid: number) => {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  };

  it('returns the password as soon as the script exits, the daemon still holding its stdout', async () => {
    const { script, daemonPid } = await daemonising('daemon-ok.sh', `printf '%s\\n' '${PASSWORD}'`);
    try {
      expect((await readVaultPassword(script, 'default', 'test', 5_000)).toString()).toBe(PASSWORD);
      // Returned while the daemon still holds its stdout: it did not wait for the daemon to end.
      expect(alive(await daemonPid())).toBe(true);
    } finally {
      stopDaemon(await daemonPid());
    }
  }, 15_000);

  it('reports a failed script as failed (its exit code), not as a timeout', async () => {
    const { script, daemonPid } = await daemonising('daemon-fail.sh', 'exit 3');
    try {
      await expect(readVaultPassword(script, 'default', 'test', 5_000)).rejects.toThrow(/failed \(exit code 3\)/);
    } finally {
      stopDaemon(await daemonPid());
    }
  }, 15_000);

  it("gets the environment it needs, without cloudgate's or OpenStack's secrets", async () => {
    const seen = join(dir, 'env-seen');
    const script = join(dir, 'env.sh');
    await writeFile(script, `#!/bin/sh\nenv > ${seen}\necho '${PASSWORD}'\n`, { mode: 0o700 });
    const planted = {
      OS_PASSWORD: 'os-pw',
      OS_CLIENT_SECRET: 'os-cs',
      CLOUDGATE_DNS_SECRET: 'cg-s',
      GITHUB_TOKEN: 'gh',
      ANSIBLE_VAULT_IDENTITY: 'prod',
      VAULT_ADDR: 'https://vault.example',
    };
    Object.assign(process.env, planted);
    try {
      await readVaultPassword(script, 'default', 'test');
    } finally {
      for (const name of Object.keys(planted)) delete process.env[name];
    }
    const names = (await readFile(seen, 'utf8')).split('\n').map((l) => l.split('=')[0]);
    expect(names).toEqual(expect.arrayContaining(['PATH', 'ANSIBLE_VAULT_IDENTITY', 'VAULT_ADDR']));
    for (const secret of ['OS_PASSWORD', 'OS_CLIENT_SECRET', 'CLOUDGATE_DNS_SECRET', 'GITHUB_TOKEN'])
      expect(names).not.toContain(secret);
  });
});

describe('a vault password file others can read or change', () => {
  it.each(['644', '604', '620', '602', '666'])('is refused at mode %s, with the chmod that fixes it', async (octal) => {
    const mode = parseInt(octal, 8);
    const file = join(dir, `shared-${octal}`);
    await writeFile(file, `${PASSWORD}\n`);
    await chmod(file, mode);
    const failure = await readVaultPassword(file, 'default', 'test').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(UsageError);
    expect((failure as UsageError).message).toContain(file);
    expect((failure as UsageError).advice).toMatch(new RegExp(`chmod 0?[0-7]{3} ${file}`));
    expect((failure as UsageError).message).not.toContain(PASSWORD);
  });

  it('is read at 0600 and 0640 (a team sharing it through a group)', async () => {
    for (const mode of [0o600, 0o640, 0o400]) {
      const file = join(dir, `private-${mode.toString(8)}`);
      await writeFile(file, `${PASSWORD}\n`);
      await chmod(file, mode);
      expect((await readVaultPassword(file, 'default', 'test')).toString()).toBe(PASSWORD);
    }
  });

  it('a script others can change is refused; one they can only read and run is not', async () => {
    const script = join(dir, 'shared-script.sh');
    await writeFile(script, `#!/bin/sh\necho '${PASSWORD}'\n`);
    await chmod(script, 0o777);
    await expect(readVaultPassword(script, 'default', 'test')).rejects.toThrow(
      /mode 0777: others than its owner can change it/,
    );
    await chmod(script, 0o755);
    expect((await readVaultPassword(script, 'default', 'test')).toString()).toBe(PASSWORD);
  });
});

describe('vaulted inventory values', () => {
  const inventory = `cluster_issuer_type: acme\ncluster_issuer_acme_solver: cloudflare\ncluster_issuer_acme_cloudflare_api_token: !vault |\n  ${ENCRYPT_STRING.replaceAll('\n', '\n  ')}\n`;

  it('parses !vault as a tagged value, opens it with a password (redacted from then on) and says "not checked" without', async () => {
    clearSecretsForTests();
    const values = parseInventory(inventory, 'inv.yml');
    expect(values.cluster_issuer_acme_cloudflare_api_token).toBeInstanceOf(AnsibleTagged);
    const closed = openVaulted(values, undefined);
    expect([...closed.unchecked]).toEqual(['cluster_issuer_acme_cloudflare_api_token']);
    expect(closed.findings).toMatchObject([
      { rule: 'vaulted', severity: 'info', message: expect.stringContaining('not checked (vaulted)') },
    ]);
    const keyring = (await vaultKeyringFromOptions({ passwordFiles: [passwordFile], ids: [] }, {}, dir))!;
    const opened = openVaulted(values, keyring);
    expect(opened.values.cluster_issuer_acme_cloudflare_api_token).toBe('tok-3xample-Secret');
    expect(opened.findings).toEqual([]);
    expect(redact('token tok-3xample-Secret')).toBe('token [redacted]');
  });

  it('keeps an unchanged envelope byte for byte and seals a changed or plain secret', async () => {
    const keyring = (await vaultKeyringFromOptions({ passwordFiles: [passwordFile], ids: [] }, {}, dir))!;
    const current = openVaulted(parseInventory(inventory, 'inv.yml'), keyring);
    const same = sealValues(
      { set: { cluster_issuer_acme_cloudflare_api_token: 'tok-3xample-Secret' }, merged: current.values, current },
      keyring,
    );
    expect(same.sealed).toEqual([]);
    expect(updateInventoryText(inventory, { set: same.set, remove: [] })).toBe(inventory);

    const merged = { ...current.values, cluster_issuer_acme_cloudflare_api_token: 'new-token-value' };
    const changed = sealValues(
      { set: { cluster_issuer_acme_cloudflare_api_token: 'new-token-value' }, merged, current },
      keyring,
    );
    expect(changed.sealed).toEqual(['cluster_issuer_acme_cloudflare_api_token']);
    const text = updateInventoryText(inventory, { set: changed.set, remove: [] });
    expect(text).not.toContain('new-token-value');
    expect(
      keyring.open((parseInventory(text, 'inv.yml').cluster_issuer_acme_cloudflare_api_token as AnsibleTagged).text),
    ).toBe('new-token-value');
  });

  it('seals an !unsafe secret as its literal text, and keeps its envelope when the same !unsafe value is given again', async () => {
    const keyring = (await vaultKeyringFromOptions({ passwordFiles: [passwordFile], ids: [] }, {}, dir))!;
    const current = openVaulted(parseInventory(inventory, 'inv.yml'), keyring);
    const unsafe = new AnsibleTagged('!unsafe', 'new{{x}}');
    const sealed = sealValues(
      {
        set: { cluster_issuer_acme_cloudflare_api_token: unsafe },
        merged: { ...current.values, cluster_issuer_acme_cloudflare_api_token: unsafe },
        current,
      },
      keyring,
    );
    expect(sealed.sealed).toEqual(['cluster_issuer_acme_cloudflare_api_token']);
    const envelope = sealed.set.cluster_issuer_acme_cloudflare_api_token as AnsibleTagged;
    expect(envelope.tag).toBe('!vault');
    expect(keyring.open(envelope.text)).toBe('new{{x}}');
    expect(
      vaultWriteFindings(sealed.sealed, keyring, { cluster_issuer_acme_cloudflare_api_token: unsafe }, current),
    ).toContainEqual(
      expect.objectContaining({
        rule: 'vault-unsafe',
        severity: 'info',
        variable: 'cluster_issuer_acme_cloudflare_api_token',
      }),
    );

    const written = updateInventoryText(inventory, { set: sealed.set, remove: [] });
    const reread = openVaulted(parseInventory(written, 'inv.yml'), keyring);
    const again = sealValues(
      {
        set: { cluster_issuer_acme_cloudflare_api_token: unsafe },
        merged: { ...reread.values, cluster_issuer_acme_cloudflare_api_token: unsafe },
        current: reread,
      },
      keyring,
    );
    expect(again.sealed).toEqual([]);
    expect(again.set.cluster_issuer_acme_cloudflare_api_token).toBe(
      reread.envelopes.get('cluster_issuer_acme_cloudflare_api_token'),
    );
  });
});

function catchError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}
