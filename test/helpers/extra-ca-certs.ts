/** Runs `body` with NODE_EXTRA_CA_CERTS set as if after start-up (so Node's own store lacks it), then restores it. */
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
