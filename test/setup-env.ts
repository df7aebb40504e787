/**
 * Tests only ever talk to 127.0.0.1. The cloud APIs that some checks call (the token service, DNS
 * providers' APIs) default to public addresses: every test process and every cloudgate it starts
 * gets a closed local port instead, unless the test points the variable at its own server.
 */
const CLOSED_LOCAL_PORT = 'https://127.0.0.1:9';
const CLOUD_ENDPOINTS = [
  'CLOUDGATE_STS_ENDPOINT',
  'CLOUDGATE_ROUTE53_ENDPOINT',
  'CLOUDGATE_ROUTE53_STS_ENDPOINT',
  'CLOUDGATE_AZUREDNS_LOGIN_ENDPOINT',
  'CLOUDGATE_AZUREDNS_ENDPOINT',
  'CLOUDGATE_CLOUDFLARE_ENDPOINT',
  'CLOUDGATE_GODADDY_ENDPOINT',
];
for (const name of CLOUD_ENDPOINTS) process.env[name] ??= CLOSED_LOCAL_PORT;
