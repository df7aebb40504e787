const KEY_USAGE_OID = Buffer.from([0x55, 0x1d, 0x0f]); // 2.5.29.15
const BASIC_CONSTRAINTS_OID = Buffer.from([0x55, 0x1d, 0x13]); // 2.5.29.19
const BITS = [
  'digitalSignature',
  'nonRepudiation',
  'keyEncipherment',
  'dataEncipherment',
  'keyAgreement',
  'keyCertSign',
  'cRLSign',
  'encipherOnly',
  'decipherOnly',
] as const;
export type KeyUsage = (typeof BITS)[number];

interface Tlv {
  tag: number;
  content: Buffer;
}

/** The DER elements directly inside `buf`. */
function children(buf: Buffer): Tlv[] {
  const out: Tlv[] = [];
  let at = 0;
  while (at < buf.length) {
    const tag = buf[at++];
    let length = buf[at++];
    if (length & 0x80) {
      const n = length & 0x7f;
      length = 0;
      for (let i = 0; i < n; i++) length = length * 256 + buf[at++];
    }
    out.push({ tag, content: buf.subarray(at, at + length) });
    at += length;
  }
  return out;
}

/** The value (inside the OCTET STRING) of the extension `oid`, or `undefined` when absent. */
function extensionValue(der: Buffer, oid: Buffer): Buffer | undefined {
  const tbs = children(children(der)[0].content)[0];
  const explicit = children(tbs.content).find((t) => t.tag === 0xa3);
  if (!explicit) return undefined;
  for (const extension of children(children(explicit.content)[0].content)) {
    const parts = children(extension.content);
    if (parts[0]?.tag === 0x06 && parts[0].content.equals(oid)) return parts[parts.length - 1].content;
  }
  return undefined;
}

/**
 * The key usage bits of a DER certificate, or `undefined` when it has no such extension. Node's
 * X509Certificate does not expose them (and its `ca` is false for a CA lacking keyCertSign), and
 * node-forge reads only RSA certificates, so this walks the few DER levels itself.
 */
export function keyUsage(der: Buffer): KeyUsage[] | undefined {
  const value = extensionValue(der, KEY_USAGE_OID);
  if (!value) return undefined;
  const bytes = children(value)[0].content.subarray(1);
  return BITS.filter((_, bit) => ((bytes[bit >> 3] ?? 0) & (0x80 >> (bit & 7))) !== 0);
}

/** Whether basicConstraints says cA: TRUE. */
export function basicConstraintsCa(der: Buffer): boolean {
  const value = extensionValue(der, BASIC_CONSTRAINTS_OID);
  if (!value) return false;
  const first = children(children(value)[0].content)[0];
  return first?.tag === 0x01 && first.content[0] !== 0;
}
