/**
 * The DNS provider's token service (AssumeRoleWithWebIdentity) and its DNS API (Route 53 REST,
 * SigV4-signed) on 127.0.0.1 over HTTPS, answering as the real services do: the same status codes
 * and XML error documents, checked in the same order. The token service really fetches the
 * issuer's discovery document and key set (IDPCommunicationError when it cannot) and verifies the
 * token's signature; the DNS API really verifies the SigV4 signature (written out here by hand,
 * independently of the signing library the product uses).
 *
 *   const aws = await startAwsSts({ providers: [...], roles: [...], zones: [...] });
 *   env: { CLOUDGATE_STS_ENDPOINT: aws.url, CLOUDGATE_ROUTE53_ENDPOINT: aws.url }
 */
import { createHash, createHmac, createPublicKey, randomBytes, verify, type JsonWebKey } from 'node:crypto';
import { get as httpsGet, createServer, type RequestOptions } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestCA, type TestCA } from '../helpers/pki.js';

export interface OidcProvider {
  /** The provider's URL as registered (compared with the token's iss byte for byte). */
  issuer: string;
  clientIds: string[];
  /** CA the token service trusts for the issuer (the test issuer's private CA). */
  ca?: string;
}

export interface Role {
  arn: string;
  /** The trust policy: which provider, subject and audience may assume it. */
  trust: { issuer: string; sub: string; aud: string };
  /** Allowed DNS actions, e.g. ['route53:ListResourceRecordSets']. */
  actions: string[];
}

export interface HostedZone {
  id: string;
  name: string;
}

export interface AwsStsOptions {
  providers?: OidcProvider[];
  roles?: Role[];
  zones?: HostedZone[];
}

export interface RecordedAwsRequest {
  method: string;
  path: string;
  authorization?: string;
  /** Form parameters of a token-service call (the token itself is kept for assertions in `tokens`). */
  params?: Record<string, string>;
}

export interface AwsSts {
  url: string;
  ca: TestCA;
  caFile: string;
  requests: RecordedAwsRequest[];
  /** Everything secret the services handed out or received: no output may contain any of them. */
  secrets: string[];
  options: Required<AwsStsOptions>;
  stop(): Promise<void>;
}

interface Session {
  secretAccessKey: string;
  sessionToken: string;
  role: Role;
  sessionName: string;
}

const STS_NS = 'https://sts.amazonaws.com/doc/2011-06-15/';
const R53_NS = 'https://route53.amazonaws.com/doc/2013-04-01/';
const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function errorDocument(ns: string, type: string, code: string, message: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<ErrorResponse xmlns="${ns}">\n  <Error>\n    <Type>${type}</Type>\n    <Code>${code}</Code>\n    <Message>${xmlEscape(message)}</Message>\n  </Error>\n  <RequestId>${randomBytes(16).toString('hex')}</RequestId>\n</ErrorResponse>\n`;
}

export async function startAwsSts(options: AwsStsOptions = {}): Promise<AwsSts> {
  const opts = { providers: options.providers ?? [], roles: options.roles ?? [], zones: options.zones ?? [] };
  const ca = createTestCA('aws emulation CA');
  const leaf = ca.issue(['127.0.0.1', 'localhost']);
  const requests: RecordedAwsRequest[] = [];
  const secrets: string[] = [];
  const sessions = new Map<string, Session>();

  const handler = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req);
    const url = new URL(req.url ?? '/', 'https://emulated');
    const send = (status: number, xml: string) => {
      res.writeHead(status, { 'content-type': 'text/xml', 'x-amz-request-id': randomBytes(8).toString('hex') });
      res.end(xml);
    };
    if (url.pathname.startsWith('/2013-04-01/')) {
      requests.push({
        method: req.method ?? 'GET',
        path: url.pathname + url.search,
        authorization: req.headers.authorization,
      });
      return route53(req, url, body, sessions, opts, send);
    }
    const params = Object.fromEntries(new URLSearchParams(body));
    requests.push({
      method: req.method ?? 'GET',
      path: url.pathname,
      authorization: req.headers.authorization,
      params: { ...params, WebIdentityToken: params.WebIdentityToken ? '(token)' : '' },
    });
    if (params.WebIdentityToken) secrets.push(params.WebIdentityToken);
    const answer = await assumeRoleWithWebIdentity(params, opts);
    if ('error' in answer) return send(answer.status, errorDocument(STS_NS, 'Sender', answer.error, answer.message));
    const accessKeyId = `ASIA${randomBytes(8).toString('hex').toUpperCase()}`;
    const secretAccessKey = randomBytes(30).toString('base64');
    const sessionToken = `IQoJb3JpZ2luX2Vj${randomBytes(120).toString('base64')}`;
    secrets.push(accessKeyId, secretAccessKey, sessionToken);
    sessions.set(accessKeyId, {
      secretAccessKey,
      sessionToken,
      role: answer.role,
      sessionName: params.RoleSessionName,
    });
    const account = answer.role.arn.split(':')[4];
    const roleName = answer.role.arn.split('/').pop();
    send(
      200,
      `<AssumeRoleWithWebIdentityResponse xmlns="${STS_NS}">
  <AssumeRoleWithWebIdentityResult>
    <SubjectFromWebIdentityToken>${xmlEscape(answer.sub)}</SubjectFromWebIdentityToken>
    <Audience>${xmlEscape(answer.aud)}</Audience>
    <AssumedRoleUser>
      <Arn>arn:aws:sts::${account}:assumed-role/${roleName}/${xmlEscape(params.RoleSessionName)}</Arn>
      <AssumedRoleId>AROA${randomBytes(8).toString('hex').toUpperCase()}:${xmlEscape(params.RoleSessionName)}</AssumedRoleId>
    </AssumedRoleUser>
    <Credentials>
      <SessionToken>${sessionToken}</SessionToken>
      <SecretAccessKey>${secretAccessKey}</SecretAccessKey>
      <Expiration>${new Date(Date.now() + Number(params.DurationSeconds ?? 3600) * 1000).toISOString()}</Expiration>
      <AccessKeyId>${accessKeyId}</AccessKeyId>
    </Credentials>
    <Provider>${xmlEscape(answer.provider)}</Provider>
  </AssumeRoleWithWebIdentityResult>
  <ResponseMetadata>
    <RequestId>${randomBytes(16).toString('hex')}</RequestId>
  </ResponseMetadata>
</AssumeRoleWithWebIdentityResponse>
`,
    );
  };
  const server = createServer({ cert: leaf.cert, key: leaf.key }, (req, res) => {
    handler(req, res).catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    ca,
    caFile: ca.file,
    requests,
    secrets,
    options: opts,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type StsAnswer =
  { role: Role; sub: string; aud: string; provider: string } | { status: number; error: string; message: string };

/** The token service's checks, in its order: request, token, provider, keys, expiry, audience, trust policy. */
async function assumeRoleWithWebIdentity(
  params: Record<string, string>,
  opts: Required<AwsStsOptions>,
): Promise<StsAnswer> {
  if (params.Action !== 'AssumeRoleWithWebIdentity' || params.Version !== '2011-06-15') {
    return {
      status: 400,
      error: 'InvalidAction',
      message: `Could not find operation ${params.Action} for version ${params.Version}`,
    };
  }
  for (const name of ['RoleArn', 'RoleSessionName', 'WebIdentityToken']) {
    if (!params[name])
      return {
        status: 400,
        error: 'ValidationError',
        message: `1 validation error detected: Value null at '${name.charAt(0).toLowerCase()}${name.slice(1)}' failed to satisfy constraint: Member must not be null`,
      };
  }
  const duration = Number(params.DurationSeconds ?? 3600);
  if (duration < 900)
    return {
      status: 400,
      error: 'ValidationError',
      message: `1 validation error detected: Value '${duration}' at 'durationSeconds' failed to satisfy constraint: Member must have value greater than or equal to 900`,
    };
  const parts = params.WebIdentityToken.split('.');
  const header = decode(parts[0]);
  const claims = decode(parts[1]);
  if (parts.length !== 3 || !header || !claims) {
    return {
      status: 400,
      error: 'InvalidIdentityToken',
      message: 'The ID Token provided is not a valid JWT. (You may see this error if you sent an Access Token)',
    };
  }
  const iss = String(claims.iss ?? '');
  const provider = opts.providers.find((p) => p.issuer === iss);
  if (!provider)
    return {
      status: 400,
      error: 'InvalidIdentityToken',
      message: `No OpenIDConnect provider found in your account for ${iss}`,
    };
  let keys: (JsonWebKey & { kid?: string })[];
  try {
    const discovery = await fetchJson(`${iss.replace(/\/+$/, '')}/.well-known/openid-configuration`, provider.ca);
    keys = ((await fetchJson(String(discovery.jwks_uri), provider.ca)).keys ?? []) as (JsonWebKey & { kid?: string })[];
  } catch {
    return {
      status: 400,
      error: 'IDPCommunicationError',
      message:
        "Couldn't retrieve verification key from your identity provider,  please reference AssumeRoleWithWebIdentity documentation for requirements",
    };
  }
  const key = keys.find((k) => k.kid === header.kid);
  const signed = Buffer.from(`${parts[0]}.${parts[1]}`);
  const signature = Buffer.from(parts[2], 'base64url');
  const valid =
    key &&
    verify(
      'sha256',
      signed,
      header.alg === 'ES256'
        ? { key: createPublicKey({ key, format: 'jwk' }), dsaEncoding: 'ieee-p1363' }
        : createPublicKey({ key, format: 'jwk' }),
      signature,
    );
  if (!valid)
    return {
      status: 400,
      error: 'InvalidIdentityToken',
      message: "Couldn't verify the token's signature with the provider's keys",
    };
  const now = Math.floor(Date.now() / 1000);
  if (typeof claims.exp === 'number' && claims.exp < now) {
    return {
      status: 400,
      error: 'ExpiredTokenException',
      message: `Token expired: current date/time ${now} must be before the expiration date/time${claims.exp}`,
    };
  }
  const aud = typeof claims.aud === 'string' ? [claims.aud] : Array.isArray(claims.aud) ? claims.aud.map(String) : [];
  const matched = aud.find((a) => provider.clientIds.includes(a));
  if (!matched) return { status: 400, error: 'InvalidIdentityToken', message: 'Incorrect token audience' };
  const role = opts.roles.find((r) => r.arn === params.RoleArn);
  const sub = String(claims.sub ?? '');
  if (!role || role.trust.issuer !== iss || role.trust.sub !== sub || role.trust.aud !== matched) {
    return { status: 403, error: 'AccessDenied', message: 'Not authorized to perform sts:AssumeRoleWithWebIdentity' };
  }
  return { role, sub, aud: matched, provider: iss.replace(/^https:\/\//, '') };
}

function route53(
  req: IncomingMessage,
  url: URL,
  body: string,
  sessions: Map<string, Session>,
  opts: Required<AwsStsOptions>,
  send: (status: number, xml: string) => void,
): void {
  const auth =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/route53\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      req.headers.authorization ?? '',
    );
  if (!auth)
    return send(403, errorDocument(R53_NS, 'Sender', 'MissingAuthenticationToken', 'Missing Authentication Token'));
  const [, accessKeyId, day, region, signedHeaders, signature] = auth;
  const session = sessions.get(accessKeyId);
  if (!session || req.headers['x-amz-security-token'] !== session.sessionToken) {
    return send(
      403,
      errorDocument(R53_NS, 'Sender', 'InvalidClientTokenId', 'The security token included in the request is invalid.'),
    );
  }
  if (sigv4(req, url, body, { secret: session.secretAccessKey, day, region, signedHeaders }) !== signature) {
    return send(
      403,
      errorDocument(
        R53_NS,
        'Sender',
        'SignatureDoesNotMatch',
        'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.',
      ),
    );
  }
  const [account, roleName] = [session.role.arn.split(':')[4], session.role.arn.split('/').pop()];
  const who = `arn:aws:sts::${account}:assumed-role/${roleName}/${session.sessionName}`;
  const denied = (action: string, resource: string) =>
    send(
      403,
      errorDocument(
        R53_NS,
        'Sender',
        'AccessDenied',
        `User: ${who} is not authorized to perform: ${action} on resource: ${resource} because no identity-based policy allows the ${action} action`,
      ),
    );
  const rrset = /^\/2013-04-01\/hostedzone\/([^/]+)\/rrset$/.exec(url.pathname);
  if (rrset) {
    const id = decodeURIComponent(rrset[1]);
    if (!session.role.actions.includes('route53:ListResourceRecordSets'))
      return denied('route53:ListResourceRecordSets', `arn:aws:route53:::hostedzone/${id}`);
    const zone = opts.zones.find((z) => z.id === id);
    if (!zone)
      return send(404, errorDocument(R53_NS, 'Sender', 'NoSuchHostedZone', `No hosted zone found with ID: ${id}`));
    return send(
      200,
      `<?xml version="1.0"?>\n<ListResourceRecordSetsResponse xmlns="${R53_NS}"><ResourceRecordSets><ResourceRecordSet><Name>${zone.name}</Name><Type>NS</Type><TTL>172800</TTL><ResourceRecords><ResourceRecord><Value>ns-1.awsdns-01.org.</Value></ResourceRecord></ResourceRecords></ResourceRecordSet></ResourceRecordSets><IsTruncated>true</IsTruncated><MaxItems>1</MaxItems><NextRecordName>${zone.name}</NextRecordName><NextRecordType>SOA</NextRecordType></ListResourceRecordSetsResponse>\n`,
    );
  }
  if (url.pathname === '/2013-04-01/hostedzonesbyname') {
    if (!session.role.actions.includes('route53:ListHostedZonesByName'))
      return denied('route53:ListHostedZonesByName', '*');
    const dnsname = url.searchParams.get('dnsname');
    const zones = [...opts.zones]
      .sort((a, b) => a.name.localeCompare(b.name))
      .filter((z) => !dnsname || z.name.replace(/\.$/, '') >= dnsname.replace(/\.$/, ''))
      .slice(0, 1);
    const items = zones
      .map(
        (z) =>
          `<HostedZone><Id>/hostedzone/${z.id}</Id><Name>${z.name}</Name><CallerReference>ref</CallerReference><Config><PrivateZone>false</PrivateZone></Config><ResourceRecordSetCount>2</ResourceRecordSetCount></HostedZone>`,
      )
      .join('');
    return send(
      200,
      `<?xml version="1.0"?>\n<ListHostedZonesByNameResponse xmlns="${R53_NS}"><HostedZones>${items}</HostedZones>${dnsname ? `<DNSName>${dnsname}</DNSName>` : ''}<IsTruncated>false</IsTruncated><MaxItems>1</MaxItems></ListHostedZonesByNameResponse>\n`,
    );
  }
  send(
    404,
    errorDocument(R53_NS, 'Sender', 'UnknownOperationException', `Unknown operation ${req.method} ${url.pathname}`),
  );
}

/** SigV4 as documented: canonical request, string to sign, derived key. Returns the hex signature. */
function sigv4(
  req: IncomingMessage,
  url: URL,
  body: string,
  k: { secret: string; day: string; region: string; signedHeaders: string },
): string {
  const sha = (s: string) => createHash('sha256').update(s).digest('hex');
  const hmac = (key: Buffer | string, s: string) => createHmac('sha256', key).update(s).digest();
  const encode = (s: string) =>
    encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const query = [...url.searchParams]
    .map(([n, v]) => `${encode(n)}=${encode(v)}`)
    .sort()
    .join('&');
  const headers = k.signedHeaders
    .split(';')
    .map(
      (h) =>
        `${h}:${String(req.headers[h] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const path = url.pathname
    .split('/')
    .map((seg) => encode(decodeURIComponent(seg)))
    .join('/');
  const canonical = [req.method, path, query, headers, k.signedHeaders, sha(body)].join('\n');
  const date = String(req.headers['x-amz-date']);
  const scope = `${k.day}/${k.region}/route53/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', date, scope, sha(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${k.secret}`, k.day), k.region), 'route53'), 'aws4_request');
  return createHmac('sha256', key).update(toSign).digest('hex');
}

function decode(part: string | undefined): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8')) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function fetchJson(url: string, ca: string | undefined): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const options: RequestOptions = { ca, timeout: 3000 };
    const req = httpsGet(url, options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new Error(`status ${res.statusCode}`));
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
        } catch (error) {
          reject(error as Error);
        }
      });
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
