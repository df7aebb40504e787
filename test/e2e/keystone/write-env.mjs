#!/usr/bin/env node
// Writes what a client of the running environment needs, all mode 0600 (they hold secrets):
//   env.json        for the e2e test and the bench
//   cloudgate.yaml  a `cloudgate --config` file (secrets by *_file keys)
//   openrc.sh       the same as OS_* / CLOUDGATE_* variables for a shell
//   node write-env.mjs STATE_DIR KEYSTONE_URL BROKER_URL IDP_TOKEN_URL COMPUTE_URL
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [stateDir, identityUrl, brokerUrl, idpTokenUrl, computeUrl] = process.argv.slice(2);
const clients = JSON.parse(readFileSync(join(stateDir, 'clients.json'), 'utf8'));
const { projects, domains } = JSON.parse(readFileSync(join(stateDir, 'registered.json'), 'utf8'));
const write = (name, text) => writeFileSync(join(stateDir, name), text, { mode: 0o600 });

const secretFiles = {
  broker: join(stateDir, 'broker-client-secret'),
  idp: join(stateDir, 'idp-client-secret'),
};
write('broker-client-secret', clients.broker.cloudgate.secret);
write('idp-client-secret', clients.idp['ci-robot'].secret);

const env = {
  caFile: join(stateDir, 'ca.pem'),
  identityUrl,
  authUrl: `${identityUrl}/v3`,
  brokerUrl,
  realm: 'cloud',
  brokerIssuer: `${brokerUrl}/realms/cloud`,
  clientId: 'cloudgate',
  clientSecret: clients.broker.cloudgate.secret,
  idpTokenUrl,
  idpClients: Object.fromEntries(
    Object.entries(clients.idp).map(([id, c]) => [id, { secret: c.secret, subject: c.subject }]),
  ),
  idpClientId: 'ci-robot',
  orphanClientId: 'orphan-robot',
  // The broker's own clients and users, for the OpenStack client's direct grants (clouds.yaml's OIDC auth types).
  tokenEndpoint: `${brokerUrl}/realms/cloud/protocol/openid-connect/token`,
  brokerClients: Object.fromEntries(Object.entries(clients.broker).map(([id, c]) => [id, { secret: c.secret }])),
  brokerUsers: Object.fromEntries(
    Object.entries(clients['broker-users']).map(([name, u]) => [name, { password: u.password, subject: u.subject }]),
  ),
  domains,
  idpId: 'broker',
  protocol: 'openid',
  projects,
  computeUrl,
  member: ['alpha', 'beta'],
  adminPasswordFile: join(stateDir, 'admin-password'),
  secretFiles,
  configFile: join(stateDir, 'cloudgate.yaml'),
};
write('env.json', `${JSON.stringify(env, null, 2)}\n`);

write(
  'cloudgate.yaml',
  `# cloudgate doctor --only signin --config ${env.configFile}
signin:
  broker_url: ${brokerUrl}
  realm: cloud
  client_id: cloudgate
  client_secret_file: ${secretFiles.broker}
  idp_token_url: ${idpTokenUrl}
  idp_client_id: ci-robot
  idp_client_secret_file: ${secretFiles.idp}
  identity_url: ${identityUrl}
  idp_id: broker
  protocol: openid
  project: alpha
`,
);

write(
  'openrc.sh',
  `# . ${join(stateDir, 'openrc.sh')}
export OS_AUTH_URL=${env.authUrl}
export OS_CACERT=${env.caFile}
export OS_IDENTITY_PROVIDER=broker
export OS_PROTOCOL=openid
export OS_PROJECT_ID=${projects.alpha}
export CLOUDGATE_BROKER_URL=${brokerUrl}
export CLOUDGATE_REALM=cloud
export CLOUDGATE_CLIENT_ID=cloudgate
export CLOUDGATE_CLIENT_SECRET_FILE=${secretFiles.broker}
export CLOUDGATE_IDP_TOKEN_URL=${idpTokenUrl}
export CLOUDGATE_IDP_CLIENT_ID=ci-robot
export CLOUDGATE_IDP_CLIENT_SECRET_FILE=${secretFiles.idp}
`,
);
