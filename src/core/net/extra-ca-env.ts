/**
 * Node 20 parses NODE_EXTRA_CA_CERTS at start-up, before any JavaScript runs; when it names a whole
 * system bundle that costs every command tens of milliseconds. The shell line at the top of
 * bin/cloudgate.js hands the path over in CLOUDGATE_DEFERRED_EXTRA_CA_CERTS instead. Importing this
 * module (cli.ts does, first) puts NODE_EXTRA_CA_CERTS back, so child processes see the operator's
 * environment unchanged; net/trust.ts reads the file only when a TLS connection needs it.
 */
const DEFERRED = 'CLOUDGATE_DEFERRED_EXTRA_CA_CERTS';
const deferred = process.env[DEFERRED];
if (deferred !== undefined) {
  delete process.env[DEFERRED];
  process.env.NODE_EXTRA_CA_CERTS = deferred;
}
/** The file Node itself loaded into its default store at start-up. */
const loadedByNode = deferred === undefined ? process.env.NODE_EXTRA_CA_CERTS || undefined : undefined;

/** NODE_EXTRA_CA_CERTS when Node's default store lacks it: deferred by the launcher, or set after start-up. */
export function extraCaCertsToLoad(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const current = env.NODE_EXTRA_CA_CERTS || undefined;
  return current !== loadedByNode ? current : undefined;
}
