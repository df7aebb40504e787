#!/bin/sh
":" //; [ -z "$NODE_EXTRA_CA_CERTS" ] || { export CLOUDGATE_DEFERRED_EXTRA_CA_CERTS="$NODE_EXTRA_CA_CERTS"; unset NODE_EXTRA_CA_CERTS; }; exec node "$0" "$@"
// The line above is for sh, and a no-op string for Node. Node 20 parses NODE_EXTRA_CA_CERTS before any
// JavaScript runs (tens of milliseconds for a whole system bundle); it is handed over instead, and
// cloudgate reads it only when a TLS connection needs it (src/core/net/extra-ca-env.ts).
// `node bin/cloudgate.js` skips the line and works as well, Node having loaded the file itself.
import { main } from '../dist/cli.js';

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
