/**
 * The DNS-01 providers' APIs on one HTTPS server on 127.0.0.1, answering as the real ones do (status
 * codes and error bodies as the providers document them), each under its own path:
 *   /azuredns-login  identity platform token endpoint   /azuredns  resource manager (DNS zones)
 *   /sts              caller identity (SigV4 checked)    /route53    hosted zones (SigV4 checked)
 *   /cloudflare/client/v4   token verify, zones, records       /godaddy       domains and records
 *   /wapi/v2.5        the grid's web API (the infoblox host is this server's host:port)
 * The world each provider sees is a plain object the tests change. SigV4 is verified here by an
 * independent implementation (node:crypto), not by the signer under test. `writes` records every change.
 * Also: Debian's `named` with a zone that accepts TSIG-signed updates, for rfc2136's --probe-update.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TestCA } from '../helpers/pki.js';
import { startNamed, tsigKeygen } from './named.js';

export interface DnsWorld {
  azuredns: {
    tenant: string;
    clientId: string;
    clientSecret: string;
    secretExpired: boolean;
    subscription: string;
    /** The tenant that owns the subscription (another one: InvalidAuthenticationTokenTenant). */
    subscriptionTenant: string;
    resourceGroup: string;
    zone: string;
    role: 'contributor' | 'reader' | 'none';
  };
  route53: {
    accessKeyId: string;
    secretAccessKey: string;
    account: string;
    zones: { id: string; name: string }[];
    /** Route 53 actions the IAM user may call. */
    allowed: string[];
  };
  cloudflare: {
    token: string;
    status: 'active' | 'disabled' | 'expired';
    zones: { id: string; name: string }[];
    /** Zone names the token's resources include (Zone:Read). */
    visible: string[];
    dns: 'none' | 'read' | 'edit';
  };
  godaddy: { key: string; secret: string; domains: string[]; apiAccess: boolean };
  infoblox: { username: string; password: string; views: string[]; zones: string[] };
  /** Every change made, e.g. "cloudflare POST _cloudgate-probe.example.test". */
  writes: string[];
  /** Records that exist now (name → value): empty again after a probe. */
  records: Map<string, string>;
}

export function defaultWorld(): DnsWorld {
  return {
    azuredns: {
      tenant: '11111111-2222-3333-4444-555555555555',
      clientId: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee',
      clientSecret: `Zq8~${randomBytes(12).toString('base64url')}`,
      secretExpired: false,
      subscription: '99999999-8888-7777-6666-555555555555',
      subscriptionTenant: '11111111-2222-3333-4444-555555555555',
      resourceGroup: 'dns-rg',
      zone: 'example.test',
      role: 'contributor',
    },
    route53: {
      accessKeyId: `AKIA${randomBytes(8).toString('hex').toUpperCase()}`,
      secretAccessKey: randomBytes(30).toString('base64'),
      account: '123456789012',
      zones: [{ id: 'Z0123456789ABCDEFGHIJ', name: 'example.test' }],
      allowed: [
        'GetHostedZone',
        'ListHostedZonesByName',
        'ListResourceRecordSets',
        'ChangeResourceRecordSets',
        'GetChange',
      ],
    },
    cloudflare: {
      token: randomBytes(30).toString('base64url'),
      status: 'active',
      zones: [{ id: '023e105f4ecef8ad9ca31a8372d0c353', name: 'example.test' }],
      visible: ['example.test'],
      dns: 'edit',
    },
    godaddy: {
      key: randomBytes(16).toString('hex'),
      secret: randomBytes(11).toString('base64url'),
      domains: ['example.test'],
      apiAccess: true,
    },
    infoblox: {
      username: 'cert-manager',
      password: `pw-${randomBytes(10).toString('hex')}`,
      views: ['default', 'internal'],
      zones: ['example.test'],
    },
    writes: [],
    records: new Map(),
  };
}

export interface DnsApis {
  world: DnsWorld;
  /** The CLOUDGATE_*_ENDPOINT variables pointing at this server. */
  env: Record<string, string>;
  /** host:port for cluster_issuer_acme_infoblox_host. */
  host: string;
  /** How many requests each path prefix received. */
  hits: Record<string, number>;
  stop(): Promise<void>;
}

const xmlError = (ns: string, code: string, message: string) =>
  `<?xml version="1.0"?>\n<ErrorResponse xmlns="${ns}"><Error><Type>Sender</Type><Code>${code}</Code><Message>${message}</Message></Error><RequestId>${randomBytes(8).toString('hex')}</RequestId></ErrorResponse>`;
const STS_NS = 'https://sts.amazonaws.com/doc/2011-06-15/';
const R53_NS = 'https://route53.amazonaws.com/doc/2013-04-01/';

export async function startDnsApis(ca: TestCA, world: DnsWorld = defaultWorld()): Promise<DnsApis> {
  const { cert, key } = ca.issue(['localhost', '127.0.0.1']);
  const hits: Record<string, number> = {};
  const server: Server = createServer({ cert, key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'https://localhost');
      const prefix = url.pathname.split('/')[1] ?? '';
      hits[prefix] = (hits[prefix] ?? 0) + 1;
      const send = (
        status: number,
        payload: unknown,
        type = 'application/json',
        headers: Record<string, string> = {},
      ) =>
        res
          .writeHead(status, { 'content-type': type, ...headers })
          .end(typeof payload === 'string' && type !== 'application/json' ? payload : JSON.stringify(payload));
      try {
        if (prefix === 'azuredns-login') return azureLogin(world, req, url, body, send);
        if (prefix === 'azuredns') return azureArm(world, req, url, body, send);
        if (prefix === 'sts' || prefix === 'route53') return aws(world, req, url, body, res);
        if (prefix === 'cloudflare') return cloudflare(world, req, url, body, send);
        if (prefix === 'godaddy') return godaddy(world, req, url, body, send);
        if (prefix === 'wapi') return infoblox(world, req, url, body, send);
        send(404, { error: 'no such API' });
      } catch (error) {
        send(500, { error: String(error) });
      }
    });
  });
  tokens.clear();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `localhost:${(server.address() as { port: number }).port}`;
  const base = `https://${host}`;
  return {
    world,
    host,
    hits,
    env: {
      CLOUDGATE_AZUREDNS_LOGIN_ENDPOINT: `${base}/azuredns-login`,
      CLOUDGATE_AZUREDNS_ENDPOINT: `${base}/azuredns`,
      CLOUDGATE_ROUTE53_STS_ENDPOINT: `${base}/sts`,
      CLOUDGATE_ROUTE53_ENDPOINT: `${base}/route53`,
      CLOUDGATE_CLOUDFLARE_ENDPOINT: `${base}/cloudflare/client/v4`,
      CLOUDGATE_GODADDY_ENDPOINT: `${base}/godaddy`,
    },
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

type Send = (status: number, payload: unknown, type?: string, headers?: Record<string, string>) => void;

// ---- azuredns --------------------------------------------------------------------------------

/** Access tokens issued: token → the tenant it was issued in. */
const tokens = new Map<string, string>();

function aadError(send: Send, status: number, error: string, code: number, text: string): void {
  const trace = randomBytes(16).toString('hex');
  send(status, {
    error,
    error_description: `AADSTS${code}: ${text}\r\nTrace ID: ${trace}\r\nCorrelation ID: ${trace}\r\nTimestamp: ${new Date().toISOString()}`,
    error_codes: [code],
    timestamp: new Date().toISOString(),
    trace_id: trace,
    correlation_id: trace,
    error_uri: `https://login.microsoftonline.com/error?code=${code}`,
  });
}

function azureLogin(world: DnsWorld, req: IncomingMessage, url: URL, body: string, send: Send): void {
  const a = world.azuredns;
  const m = /^\/azuredns-login\/([^/]+)\/oauth2\/v2\.0\/token$/.exec(url.pathname);
  if (!m || req.method !== 'POST') return send(404, { error: 'not_found' });
  const tenant = decodeURIComponent(m[1]!);
  const form = new URLSearchParams(body);
  if (tenant !== a.tenant && tenant !== a.subscriptionTenant) {
    return aadError(
      send,
      400,
      'invalid_request',
      90002,
      `Tenant '${tenant}' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud.`,
    );
  }
  if (
    form.get('grant_type') !== 'client_credentials' ||
    form.get('scope') !== 'https://management.azure.com/.default'
  ) {
    return aadError(
      send,
      400,
      'invalid_request',
      900144,
      "The request body must contain the following parameter: 'grant_type'.",
    );
  }
  if (form.get('client_id') !== a.clientId) {
    return aadError(
      send,
      400,
      'unauthorized_client',
      700016,
      `Application with identifier '${form.get('client_id')}' was not found in the directory '${tenant}'.`,
    );
  }
  if (form.get('client_secret') !== a.clientSecret) {
    return aadError(
      send,
      401,
      'invalid_client',
      7000215,
      `Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '${a.clientId}'.`,
    );
  }
  if (a.secretExpired)
    return aadError(
      send,
      401,
      'invalid_client',
      7000222,
      `The provided client secret keys for app '${a.clientId}' are expired.`,
    );
  const token = randomBytes(32).toString('base64url');
  tokens.set(token, tenant);
  send(200, { token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: token });
}

function azureArm(world: DnsWorld, req: IncomingMessage, url: URL, body: string, send: Send): void {
  const a = world.azuredns;
  const armError = (status: number, code: string, message: string) => send(status, { error: { code, message } });
  const tenant = tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
  if (!tenant) return armError(401, 'InvalidAuthenticationToken', 'The access token is invalid.');
  if (url.searchParams.get('api-version') !== '2018-05-01')
    return armError(400, 'InvalidApiVersionParameter', 'The api-version is invalid.');
  const m =
    /^\/azuredns\/subscriptions\/([^/]+)\/resourceGroups\/([^/]+)\/providers\/Microsoft\.Network\/dnsZones\/([^/]+)(?:\/TXT\/([^/]+))?$/.exec(
      url.pathname,
    );
  if (!m) return armError(404, 'NotFound', 'Not found');
  const [sub, group, zone, record] = m.slice(1).map((s) => (s === undefined ? undefined : decodeURIComponent(s)));
  if (sub !== a.subscription)
    return armError(404, 'SubscriptionNotFound', `The subscription '${sub}' could not be found.`);
  if (tenant !== a.subscriptionTenant) {
    return armError(
      401,
      'InvalidAuthenticationTokenTenant',
      `The access token is from the wrong issuer 'https://sts.windows.net/${tenant}/'. It must match the tenant 'https://sts.windows.net/${a.subscriptionTenant}/' associated with this subscription.`,
    );
  }
  const scope = `/subscriptions/${sub}/resourceGroups/${group}/providers/Microsoft.Network/dnszones/${zone}`;
  const action = record
    ? `Microsoft.Network/dnszones/TXT/${req.method === 'DELETE' ? 'delete' : req.method === 'PUT' ? 'write' : 'read'}`
    : 'Microsoft.Network/dnszones/read';
  const writes = req.method !== 'GET';
  if (a.role === 'none' || (writes && a.role !== 'contributor')) {
    return armError(
      403,
      'AuthorizationFailed',
      `The client '${a.clientId}' with object id '${a.clientId}' does not have authorization to perform action '${action}' over scope '${scope}' or the scope is invalid. If access was recently granted, please refresh your credentials.`,
    );
  }
  if (group !== a.resourceGroup)
    return armError(404, 'ResourceGroupNotFound', `Resource group '${group}' could not be found.`);
  if (zone !== a.zone)
    return armError(
      404,
      'ResourceNotFound',
      `The Resource 'Microsoft.Network/dnszones/${zone}' under resource group '${group}' was not found. For more details please go to https://aka.ms/ARMResourceNotFoundFix`,
    );
  if (!record) {
    return send(200, {
      id: scope,
      name: zone,
      type: 'Microsoft.Network/dnszones',
      location: 'global',
      properties: {
        maxNumberOfRecordSets: 10000,
        numberOfRecordSets: 2 + world.records.size,
        nameServers: ['ns1-01.azure-dns.com.'],
      },
    });
  }
  const fqdn = `${record}.${zone}`;
  if (req.method === 'PUT') {
    const value = (JSON.parse(body) as { properties: { TXTRecords: { value: string[] }[] } }).properties.TXTRecords[0]!
      .value[0]!;
    world.records.set(fqdn, value);
    world.writes.push(`azuredns PUT ${fqdn}`);
    return send(201, {
      id: `${scope}/TXT/${record}`,
      name: record,
      type: 'Microsoft.Network/dnszones/TXT',
      properties: { fqdn: `${fqdn}.`, TTL: 60, TXTRecords: [{ value: [value] }] },
    });
  }
  if (req.method === 'DELETE') {
    world.records.delete(fqdn);
    world.writes.push(`azuredns DELETE ${fqdn}`);
    return send(200, '', 'text/plain');
  }
  armError(405, 'MethodNotAllowed', 'The method is not allowed.');
}

// ---- route53: SigV4 checked independently ----------------------------------------------------

const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');
const hmac = (keyBytes: Buffer | string, data: string) => createHmac('sha256', keyBytes).update(data).digest();
const rfc3986 = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The SigV4 verdict on a request: the error code AWS would answer, or undefined when the signature holds. */
function sigv4Error(
  world: DnsWorld,
  req: IncomingMessage,
  url: URL,
  body: string,
  service: string,
): string | undefined {
  const m =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
      req.headers.authorization ?? '',
    );
  if (!m) return 'IncompleteSignature';
  const [, keyId, date, region, signedService, signedHeaders, signature] = m as unknown as string[];
  if (keyId !== world.route53.accessKeyId) return 'InvalidClientTokenId';
  if (signedService !== service || (service === 'route53' && region !== 'us-east-1')) return 'SignatureDoesNotMatch';
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  if (
    Math.abs(
      Date.parse(amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z')) - Date.now(),
    ) >
    5 * 60_000
  )
    return 'RequestExpired';
  const headerNames = signedHeaders!.split(';');
  if (!headerNames.includes('host')) return 'SignatureDoesNotMatch';
  const canonicalHeaders = headerNames
    .map(
      (h) =>
        `${h}:${String(req.headers[h] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const canonicalUri = url.pathname
    .split('/')
    .map((segment) => rfc3986(segment))
    .join('/');
  const canonicalQuery = [...url.searchParams]
    .map(([k, v]) => [rfc3986(k), rfc3986(v)])
    .sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonical = [req.method, canonicalUri, canonicalQuery, canonicalHeaders, signedHeaders, sha256(body)].join(
    '\n',
  );
  const scope = `${date}/${region}/${signedService}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  const signingKey = hmac(
    hmac(hmac(hmac(`AWS4${world.route53.secretAccessKey}`, date!), region!), signedService!),
    'aws4_request',
  );
  return createHmac('sha256', signingKey).update(toSign).digest('hex') === signature
    ? undefined
    : 'SignatureDoesNotMatch';
}

const AWS_MESSAGES: Record<string, string> = {
  InvalidClientTokenId: 'The security token included in the request is invalid.',
  SignatureDoesNotMatch:
    'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
  IncompleteSignature: "Authorization header requires 'Credential' parameter.",
  RequestExpired: 'Request has expired.',
};

function aws(world: DnsWorld, req: IncomingMessage, url: URL, body: string, res: ServerResponse): void {
  const b = world.route53;
  const sts = url.pathname.startsWith('/sts');
  const ns = sts ? STS_NS : R53_NS;
  const xml = (status: number, text: string): void => {
    res.writeHead(status, { 'content-type': 'text/xml', 'x-amzn-requestid': randomBytes(8).toString('hex') }).end(text);
  };
  const denied = sigv4Error(world, req, url, body, sts ? 'sts' : 'route53');
  if (denied) return xml(denied === 'IncompleteSignature' ? 400 : 403, xmlError(ns, denied, AWS_MESSAGES[denied]!));
  const user = `arn:aws:iam::${b.account}:user/cert-manager`;
  if (sts) {
    if (req.method !== 'POST' || new URLSearchParams(body).get('Action') !== 'GetCallerIdentity')
      return xml(400, xmlError(ns, 'InvalidAction', 'Could not find operation'));
    return xml(
      200,
      `<GetCallerIdentityResponse xmlns="${ns}"><GetCallerIdentityResult><Arn>${user}</Arn><UserId>AIDA${b.account}EXAMPLE</UserId><Account>${b.account}</Account></GetCallerIdentityResult><ResponseMetadata><RequestId>${randomBytes(8).toString('hex')}</RequestId></ResponseMetadata></GetCallerIdentityResponse>`,
    );
  }
  const path = url.pathname.replace(/^\/route53/, '');
  const allow = (action: string, resource: string): boolean => {
    if (b.allowed.includes(action)) return true;
    xml(
      403,
      xmlError(
        ns,
        'AccessDenied',
        `User: ${user} is not authorized to perform: route53:${action} on resource: ${resource} because no identity-based policy allows the route53:${action} action`,
      ),
    );
    return false;
  };
  const zoneXml = (z: { id: string; name: string }) =>
    `<HostedZone><Id>/hostedzone/${z.id}</Id><Name>${z.name}.</Name><CallerReference>cg</CallerReference><Config><PrivateZone>false</PrivateZone></Config><ResourceRecordSetCount>2</ResourceRecordSetCount></HostedZone>`;
  if (path === '/2013-04-01/hostedzonesbyname') {
    if (!allow('ListHostedZonesByName', '*')) return;
    const dnsname = (url.searchParams.get('dnsname') ?? '').replace(/\.$/, '');
    const reversed = (n: string) => n.split('.').reverse().join('.');
    const sorted = [...b.zones]
      .sort((x, y) => reversed(x.name).localeCompare(reversed(y.name)))
      .filter((z) => reversed(z.name) >= reversed(dnsname));
    return xml(
      200,
      `<?xml version="1.0"?>\n<ListHostedZonesByNameResponse xmlns="${ns}"><HostedZones>${sorted.slice(0, 1).map(zoneXml).join('')}</HostedZones><DNSName>${dnsname}</DNSName><IsTruncated>${sorted.length > 1}</IsTruncated><MaxItems>1</MaxItems></ListHostedZonesByNameResponse>`,
    );
  }
  const m = /^\/2013-04-01\/hostedzone\/([^/]+)(\/rrset)?$/.exec(path);
  if (!m) return xml(404, xmlError(ns, 'NotFound', 'Not found'));
  const zone = b.zones.find((z) => z.id === m[1]);
  const resource = `arn:aws:route53:::hostedzone/${m[1]}`;
  const action = !m[2]
    ? 'GetHostedZone'
    : req.method === 'POST'
      ? 'ChangeResourceRecordSets'
      : 'ListResourceRecordSets';
  if (!allow(action, resource)) return;
  if (!zone) return xml(404, xmlError(ns, 'NoSuchHostedZone', `No hosted zone found with ID: ${m[1]}`));
  if (action === 'GetHostedZone')
    return xml(
      200,
      `<?xml version="1.0"?>\n<GetHostedZoneResponse xmlns="${ns}">${zoneXml(zone)}<DelegationSet><NameServers><NameServer>ns-1.awsdns-01.org</NameServer></NameServers></DelegationSet></GetHostedZoneResponse>`,
    );
  if (action === 'ListResourceRecordSets')
    return xml(
      200,
      `<?xml version="1.0"?>\n<ListResourceRecordSetsResponse xmlns="${ns}"><ResourceRecordSets></ResourceRecordSets><IsTruncated>false</IsTruncated><MaxItems>1</MaxItems></ListResourceRecordSetsResponse>`,
    );
  const change =
    /<Action>(UPSERT|DELETE|CREATE)<\/Action><ResourceRecordSet><Name>([^<]+)<\/Name><Type>TXT<\/Type>.*<Value>"([^<]*)"<\/Value>/s.exec(
      body,
    );
  if (!change)
    return xml(400, xmlError(ns, 'InvalidChangeBatch', 'Invalid XML ; cvc-complex-type.2.4.a: Invalid content'));
  const [, verb, name, value] = change;
  if (verb === 'DELETE' && world.records.get(name!) !== value)
    return xml(
      400,
      xmlError(
        ns,
        'InvalidChangeBatch',
        `[Tried to delete resource record set [name='${name}.', type='TXT'] but it was not found]`,
      ),
    );
  if (verb === 'DELETE') world.records.delete(name!);
  else world.records.set(name!, value!);
  world.writes.push(`route53 ${verb} ${name}`);
  xml(
    200,
    `<?xml version="1.0"?>\n<ChangeResourceRecordSetsResponse xmlns="${ns}"><ChangeInfo><Id>/change/C${randomBytes(6).toString('hex').toUpperCase()}</Id><Status>PENDING</Status><SubmittedAt>${new Date().toISOString()}</SubmittedAt></ChangeInfo></ChangeResourceRecordSetsResponse>`,
  );
}

// ---- cloudflare ---------------------------------------------------------------------------------------

function cloudflare(world: DnsWorld, req: IncomingMessage, url: URL, body: string, send: Send): void {
  const c = world.cloudflare;
  const envelope = (result: unknown, extra: Record<string, unknown> = {}) => ({
    result,
    success: true,
    errors: [],
    messages: [],
    ...extra,
  });
  const failure = (status: number, code: number, message: string, chain?: { code: number; message: string }[]) =>
    send(status, {
      success: false,
      errors: [{ code, message, ...(chain ? { error_chain: chain } : {}) }],
      messages: [],
      result: null,
    });
  const token = /^Bearer (.*)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
  // API tokens are 40 characters of [A-Za-z0-9_-]; anything else (a 37-hex global key) is refused as a header format error.
  if (!/^[A-Za-z0-9_-]{40}$/.test(token))
    return failure(400, 6003, 'Invalid request headers', [
      { code: 6111, message: 'Invalid format for Authorization header' },
    ]);
  const path = url.pathname.replace(/^\/cloudflare\/client\/v4/, '');
  if (token !== c.token) return failure(401, 1000, 'Invalid API Token');
  if (path === '/user/tokens/verify') {
    return send(
      200,
      envelope(
        { id: 'ed17574386854bf78a67040be0a770b0', status: c.status },
        { messages: [{ code: 10000, message: 'This API Token is valid and active', type: null }] },
      ),
    );
  }
  if (c.status !== 'active') return failure(401, 1000, 'Invalid API Token');
  if (path === '/zones') {
    const name = url.searchParams.get('name');
    const zones = c.zones.filter((z) => c.visible.includes(z.name) && (!name || z.name === name));
    return send(
      200,
      envelope(
        zones.map((z) => ({ id: z.id, name: z.name, status: 'active' })),
        { result_info: { page: 1, per_page: 20, count: zones.length, total_count: zones.length } },
      ),
    );
  }
  const m = /^\/zones\/([^/]+)\/dns_records(?:\/([^/]+))?$/.exec(path);
  const zone = c.zones.find((z) => z.id === m?.[1] && c.visible.includes(z.name));
  if (!m || !zone) return failure(404, 7003, 'Could not route to /zones/x, perhaps your object identifier is invalid?');
  const needs = req.method === 'GET' ? ['read', 'edit'] : ['edit'];
  if (!needs.includes(c.dns)) return failure(403, 10000, 'Authentication error');
  if (req.method === 'GET')
    return send(200, envelope([], { result_info: { page: 1, per_page: 1, count: 0, total_count: 0 } }));
  if (req.method === 'POST') {
    const record = JSON.parse(body) as { name: string; content: string };
    const id = randomBytes(16).toString('hex');
    world.records.set(record.name, record.content);
    recordIds.set(id, record.name);
    world.writes.push(`cloudflare POST ${record.name}`);
    return send(200, envelope({ id, ...record, type: 'TXT', ttl: 60 }));
  }
  if (req.method === 'DELETE' && m[2] && recordIds.has(m[2])) {
    const name = recordIds.get(m[2])!;
    world.records.delete(name);
    world.writes.push(`cloudflare DELETE ${name}`);
    return send(200, envelope({ id: m[2] }));
  }
  failure(404, 81044, 'Record does not exist.');
}
const recordIds = new Map<string, string>();

// ---- godaddy ---------------------------------------------------------------------------------------

function godaddy(world: DnsWorld, req: IncomingMessage, url: URL, body: string, send: Send): void {
  const d = world.godaddy;
  const m = /^sso-key ([^:]+):(.+)$/.exec(req.headers.authorization ?? '');
  if (!m)
    return send(401, {
      code: 'MALFORMED_CREDENTIALS',
      message: 'Unauthorized : Could not authenticate API key/secret',
    });
  if (m[1] !== d.key || m[2] !== d.secret)
    return send(401, { code: 'UNABLE_TO_AUTHENTICATE', message: 'Unable to authenticate you' });
  if (!d.apiAccess) return send(403, { code: 'ACCESS_DENIED', message: 'Authenticated user is not allowed access' });
  const path = url.pathname.replace(/^\/godaddy/, '');
  if (path === '/v1/domains')
    return send(
      200,
      d.domains
        .map((domain, i) => ({ domain, domainId: 1000 + i, status: 'ACTIVE' }))
        .slice(0, Number(url.searchParams.get('limit') ?? 100)),
    );
  const r = /^\/v1\/domains\/([^/]+)(?:\/records(?:\/TXT\/([^/]+))?)?$/.exec(path);
  const domain = r ? decodeURIComponent(r[1]!) : '';
  if (!r || !d.domains.includes(domain)) return send(404, { code: 'NOT_FOUND', message: `Domain ${domain} not found` });
  if (!path.includes('/records'))
    return send(200, {
      domain,
      domainId: 1000,
      status: 'ACTIVE',
      expires: '2030-01-01T00:00:00.000Z',
      nameServers: ['ns1.domaincontrol.com'],
    });
  if (req.method === 'PATCH') {
    const records = JSON.parse(body) as { type: string; name: string; data: string; ttl: number }[];
    if (records.some((rec) => rec.ttl < 600))
      return send(422, {
        code: 'INVALID_BODY',
        message: "Request body doesn't fulfill schema, see details in `fields`",
        fields: [{ code: 'UNEXPECTED_VALUE', path: 'records[0].ttl', message: 'must be >= 600' }],
      });
    for (const rec of records) {
      world.records.set(`${rec.name}.${domain}`, rec.data);
      world.writes.push(`godaddy PATCH ${rec.name}.${domain}`);
    }
    return send(200, '', 'text/plain');
  }
  if (req.method === 'DELETE' && r[2]) {
    world.records.delete(`${r[2]}.${domain}`);
    world.writes.push(`godaddy DELETE ${r[2]}.${domain}`);
    return res204(send);
  }
  send(405, { code: 'METHOD_NOT_ALLOWED', message: 'Method not allowed' });
}
const res204 = (send: Send) => send(204, '', 'text/plain');

// ---- infoblox ---------------------------------------------------------------------------------------

function infoblox(world: DnsWorld, req: IncomingMessage, url: URL, body: string, send: Send): void {
  const e = world.infoblox;
  const given = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
  if (given !== `${e.username}:${e.password}`) {
    return send(
      401,
      '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>401 Authorization Required</title>\n</head><body>\n<h1>Authorization Required</h1>\n</body></html>\n',
      'text/html',
      { 'www-authenticate': 'Basic realm="InfoBlox ONE Platform"' },
    );
  }
  const m = /^\/wapi\/v(\d+\.\d+)\/(.+)$/.exec(url.pathname);
  if (!m || m[1] !== '2.5')
    return send(400, {
      Error: 'AdmConProtoError: Unsupported version',
      code: 'Client.Ibap.Proto',
      text: 'Unsupported version',
    });
  const object = decodeURIComponent(m[2]!);
  if (object === 'view' && req.method === 'GET') {
    const name = url.searchParams.get('name');
    return send(
      200,
      e.views
        .filter((v) => !name || v === name)
        .map((v) => ({
          _ref: `view/ZG5zLnZpZXckLl9kZWZhdWx0:${v}/${v === 'default'}`,
          is_default: v === 'default',
          name: v,
        })),
    );
  }
  if (object === 'record:txt' && req.method === 'POST') {
    const rec = JSON.parse(body) as { name: string; text: string; view: string };
    if (!e.views.includes(rec.view) || !e.zones.some((z) => rec.name.endsWith(`.${z}`))) {
      return send(400, {
        Error:
          'AdmConDataError: None (IBDataConflictError: IB.Data.Conflict:The action is not allowed. A parent was not found.)',
        code: 'Client.Ibap.Data.Conflict',
        text: 'The action is not allowed. A parent was not found.',
      });
    }
    world.records.set(rec.name, rec.text);
    world.writes.push(`infoblox POST ${rec.name}`);
    return send(201, `record:txt/ZG5zLmJpbmRfdHh0JC5fZGVmYXVsdC50ZXN0:${rec.name}/${rec.view}`);
  }
  const ref = /^record:txt\/[^:]+:([^/]+)\/(.+)$/.exec(object);
  if (ref && req.method === 'DELETE') {
    world.records.delete(ref[1]!);
    world.writes.push(`infoblox DELETE ${ref[1]}`);
    return send(200, object);
  }
  send(404, {
    Error: 'AdmConProtoError: Unknown object type',
    code: 'Client.Ibap.Proto',
    text: `Unknown object type (${object})`,
  });
}

// ---- rfc2136: the real named ----------------------------------------------------------------------

export { hasNamed, requireNamed } from './named.js';

export interface UpdatableNamed {
  port: number;
  zone: string;
  key: { name: string; algorithm: string; secret: string };
  /** The zone's journal as named-journalprint shows it: one "add"/"del" line per change named committed. */
  journal(): string[];
  stop(): Promise<void>;
}

/** named on 127.0.0.1 with a primary zone that a tsig-keygen key may update (TXT records only). */
export async function startUpdatableNamed(zone = 'example.test', algorithm = 'hmac-sha256'): Promise<UpdatableNamed> {
  const named = await startNamed({ zone, key: tsigKeygen('cert-manager-key', algorithm), txtUpdatesOnly: true });
  return {
    ...named,
    key: { name: named.key.name, algorithm: algorithm.toUpperCase().replace('-', ''), secret: named.key.secret },
  };
}
