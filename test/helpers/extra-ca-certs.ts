/**
 * Runs `body` with NODE_EXTRA_CA_CERTS set, then restores it. Node itself reads the variable only at
 * start-up, so in-process this shows what cloudgate adds with a CA file; the start-up case is the
 * e2e launcher test's.
 */
export async function withExtraCaCerts(file: string, body: () => Promise<void>): Promise<void> {
  const saved = process.env.NODE_EXTRA_CA_CERTS;
  process.env.NODE_EXTRA_CA_CERTS = file;
  try {
    await body();
  } finally {
    if (saved === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
    else process.env.NODE_EXTRA_CA_CERTS = saved;
  }
}
