// The least any Node program can do for the tls bench: the same verified TLS handshakes, all at once, to
// the endpoints given as arguments (host:port ...), trusting the CA file in TLS_FLOOR_CA, reading each
// peer chain once. One secure context for all of them, as cloudgate builds one per CA file: a context per
// connection would parse the CA file 50 times and make the floor slower than it is. No framework, no
// served-order reading, no analysis.
import { readFileSync } from 'node:fs';
import { connect, createSecureContext } from 'node:tls';

const secureContext = createSecureContext({ ca: readFileSync(process.env.TLS_FLOOR_CA) });
let failed = 0;
await Promise.all(process.argv.slice(2).map((endpoint) => new Promise((resolve) => {
  const [host, port] = endpoint.split(':');
  const socket = connect({ host, port: Number(port), secureContext, servername: host }, () => {
    socket.getPeerCertificate(true);
    socket.destroy();
    resolve();
  });
  socket.setTimeout(10_000, () => socket.destroy(new Error('timeout')));
  socket.on('error', () => {
    failed++;
    resolve();
  });
})));
process.exitCode = failed ? 1 : 0;
