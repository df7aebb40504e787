/**
 * Ansible Vault's own format, with Node's crypto only, so that `ansible-vault` and Ansible read what
 * cloudgate writes and cloudgate reads what they write.
 *
 *   $ANSIBLE_VAULT;1.1;AES256            (or 1.2;AES256;<label> when the password has a label)
 *   hex( hex(salt) "\n" hex(hmac) "\n" hex(ciphertext) ), cut into lines of 80 characters
 *
 * The password and a random 32-byte salt give 80 bytes by PBKDF2-SHA256 (10000 rounds): 32 bytes of
 * AES key, 32 bytes of HMAC key, 16 bytes of initial counter. The plaintext is PKCS#7-padded to the
 * AES block (Ansible pads even in counter mode), encrypted with AES-256-CTR, and the ciphertext is
 * authenticated with HMAC-SHA256; the HMAC is checked before anything is decrypted.
 */
import { createCipheriv, createDecipheriv, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';

export const VAULT_HEADER = '$ANSIBLE_VAULT';
const CIPHER = 'AES256';
const ITERATIONS = 10_000;
const KEY_BYTES = 32;
const IV_BYTES = 16;
const SALT_BYTES = 32;
const BLOCK = 16;
const LINE = 80;

/** The envelope cannot be read, or the password does not open it. Never carries the plaintext. */
export class VaultError extends Error {
  constructor(
    message: string,
    /** `password`: the HMAC does not match (wrong password, or a changed envelope); `format`: not a readable envelope. */
    readonly reason: 'password' | 'format',
  ) {
    super(message);
    this.name = 'VaultError';
  }
}

export interface Envelope {
  version: '1.1' | '1.2';
  /** The vault id of a 1.2 envelope. */
  label?: string;
  salt: Buffer;
  hmac: Buffer;
  ciphertext: Buffer;
}

export function isVaultText(text: string): boolean {
  return text.trimStart().startsWith(`${VAULT_HEADER};`);
}

/** The `$ANSIBLE_VAULT;...` text of `plaintext` encrypted with `password`. `salt` is for tests only. */
export function encryptVault(
  plaintext: string | Buffer,
  password: string | Buffer,
  options: { label?: string; salt?: Buffer } = {},
): string {
  const salt = options.salt ?? randomBytes(SALT_BYTES);
  const { aesKey, hmacKey, iv } = deriveKeys(password, salt);
  const data = Buffer.from(plaintext);
  const padding = BLOCK - (data.length % BLOCK);
  const cipher = createCipheriv('aes-256-ctr', aesKey, iv);
  const ciphertext = Buffer.concat([
    cipher.update(Buffer.concat([data, Buffer.alloc(padding, padding)])),
    cipher.final(),
  ]);
  const hmac = createHmac('sha256', hmacKey).update(ciphertext).digest();
  const inner = [salt, hmac, ciphertext].map((part) => part.toString('hex')).join('\n');
  const body = Buffer.from(inner).toString('hex');
  const label = options.label && options.label !== 'default' ? options.label : undefined;
  const header = [VAULT_HEADER, label ? '1.2' : '1.1', CIPHER, ...(label ? [label] : [])].join(';');
  const lines = [header];
  for (let i = 0; i < body.length; i += LINE) lines.push(body.slice(i, i + LINE));
  return `${lines.join('\n')}\n`;
}

export function parseVault(text: string): Envelope {
  const lines = text
    .trim()
    .split(/\r?\n/)
    .map((l) => l.trim());
  const header = lines[0].split(';').map((p) => p.trim());
  if (header[0] !== VAULT_HEADER || header.length < 3) {
    throw new VaultError('the value does not start with an Ansible Vault header ($ANSIBLE_VAULT;1.1;AES256)', 'format');
  }
  const [, version, cipher, label] = header;
  if (version !== '1.1' && version !== '1.2')
    throw new VaultError(`Ansible Vault format ${version} is not supported (1.1 and 1.2 are)`, 'format');
  if (cipher !== CIPHER)
    throw new VaultError(`the vault cipher ${cipher} is not supported (only ${CIPHER} is)`, 'format');
  const inner = unhex(lines.slice(1).join(''), 'the vault body').toString('latin1');
  const parts = inner.split('\n');
  if (parts.length !== 3)
    throw new VaultError('the vault body does not hold a salt, an HMAC and a ciphertext', 'format');
  const salt = unhex(parts[0], 'the vault salt');
  const hmac = unhex(parts[1], 'the vault HMAC');
  const ciphertext = unhex(parts[2], 'the vault ciphertext');
  if (salt.length === 0 || hmac.length !== 32 || ciphertext.length === 0 || ciphertext.length % BLOCK !== 0) {
    throw new VaultError('the vault body has a salt, HMAC or ciphertext of the wrong length', 'format');
  }
  return { version, ...(label ? { label } : {}), salt, hmac, ciphertext };
}

/** The plaintext of a vault envelope; a wrong password is a VaultError (HMAC mismatch), never garbage. */
export function decryptVault(text: string, password: string | Buffer): string {
  return decryptEnvelope(parseVault(text), password).toString('utf8');
}

export function decryptEnvelope(envelope: Envelope, password: string | Buffer): Buffer {
  const { aesKey, hmacKey, iv } = deriveKeys(password, envelope.salt);
  const expected = createHmac('sha256', hmacKey).update(envelope.ciphertext).digest();
  if (!timingSafeEqual(expected, envelope.hmac)) {
    throw new VaultError(
      'the vault password does not open this value (HMAC mismatch: wrong password, or the value was changed)',
      'password',
    );
  }
  const decipher = createDecipheriv('aes-256-ctr', aesKey, iv);
  const padded = Buffer.concat([decipher.update(envelope.ciphertext), decipher.final()]);
  const padding = padded[padded.length - 1];
  if (padding < 1 || padding > BLOCK || !padded.subarray(padded.length - padding).every((b) => b === padding)) {
    throw new VaultError('the decrypted vault value has invalid padding', 'format');
  }
  return padded.subarray(0, padded.length - padding);
}

function deriveKeys(password: string | Buffer, salt: Buffer): { aesKey: Buffer; hmacKey: Buffer; iv: Buffer } {
  const derived = pbkdf2Sync(Buffer.from(password), salt, ITERATIONS, 2 * KEY_BYTES + IV_BYTES, 'sha256');
  return {
    aesKey: derived.subarray(0, KEY_BYTES),
    hmacKey: derived.subarray(KEY_BYTES, 2 * KEY_BYTES),
    iv: derived.subarray(2 * KEY_BYTES),
  };
}

function unhex(text: string, what: string): Buffer {
  if (text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text))
    throw new VaultError(`${what} is not hexadecimal`, 'format');
  return Buffer.from(text, 'hex');
}
