/**
 * What the broker's and the identity service's refusals mean (docs/signin.md, "How the servers refuse"):
 * each known answer, as built responses, to the setting or command the advice names.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  brokerAdvice,
  identityAdvice,
  serverError,
  type ServerError,
} from '../../../../../src/core/areas/signin/advice.js';
import type { SigninSettings } from '../../../../../src/core/areas/signin/settings.js';
import type { HttpResponse } from '../../../../../src/core/net/http.js';
import { clearSecretsForTests, registerSecret } from '../../../../../src/core/secrets.js';

afterEach(() => clearSecretsForTests());

const response = (status: number, body: string, headers: Record<string, string> = {}): HttpResponse => ({
  status,
  body,
  headers,
  url: 'https://idp.test/',
  durationMs: 1,
  json: () => JSON.parse(body) as never,
});

const SETTINGS: SigninSettings = {
  brokerUrl: 'https://kc.test',
  realm: 'cloud',
  clientId: 'cloudgate',
  idpClientId: 'idp-cg',
  idpScope: 'openid email',
  identityUrl: 'https://keystone.test',
  federationPrefix: 'OS',
  idpId: 'corp',
  protocol: 'openid',
  projectIsId: false,
  apiService: 'compute',
  claimPrefix: { value: 'OIDC_CLAIM_', explicit: false },
  admin: {},
  grant: 'exchange',
  openidScope: 'openid profile',
  accessTokenType: 'access_token',
  projectBy: 'either',
  projectDomainBy: 'either',
};
const error = (over: Partial<ServerError>): ServerError => ({
  status: 400,
  description: '',
  keystone: false,
  challenged: false,
  ...over,
});

describe('serverError: who answered and what it said', () => {
  it.each<[string, HttpResponse, Partial<ServerError>]>([
    [
      'an OAuth error',
      response(401, '{"error":"invalid_client","error_description":"Invalid client credentials"}'),
      {
        status: 401,
        code: 'invalid_client',
        description: 'Invalid client credentials',
        keystone: false,
        challenged: false,
      },
    ],
    [
      "Keystone's own error, with the methods it accepts",
      response(
        401,
        '{"error":{"code":401,"title":"Unauthorized","message":"unsupported method","identity":{"methods":["password","token"]}}}',
      ),
      {
        status: 401,
        code: 'Unauthorized',
        description: 'unsupported method',
        keystone: true,
        methods: ['password', 'token'],
      },
    ],
    [
      'an HTML page, by its title',
      response(403, '<html><head><title>403 Forbidden</title></head><body><h1>Forbidden</h1></body></html>'),
      { status: 403, code: undefined, description: 'an HTML page "403 Forbidden"', keystone: false, challenged: false },
    ],
    [
      "an HTML page that says why, in its own words (Apache's plain HTTP to a TLS port)",
      response(
        400,
        '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>400 Bad Request</title>\n</head><body>\n<h1>Bad Request</h1>\n<p>Your browser sent a request that this server could not understand.<br />\nReason: You&#39;re speaking plain HTTP to an SSL-enabled server port.<br />\n Instead use the HTTPS scheme to access this URL, please.<br />\n</p>\n<hr>\n<address>Apache/2.4.57 (Debian) Server at 127.0.0.1 Port 25357</address>\n</body></html>',
      ),
      {
        description:
          'an HTML page "400 Bad Request": Your browser sent a request that this server could not understand. Reason: You\'re speaking plain HTTP to an SSL-enabled server port. Instead use the HTTPS scheme to access this URL, please.',
      },
    ],
    [
      "nginx's page, whose title says it all",
      response(
        400,
        '<html>\r\n<head><title>400 The plain HTTP request was sent to HTTPS port</title></head>\r\n<body>\r\n<center><h1>400 Bad Request</h1></center>\r\n<center>The plain HTTP request was sent to HTTPS port</center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>',
      ),
      { description: 'an HTML page "400 The plain HTTP request was sent to HTTPS port"' },
    ],
    [
      'a Bearer challenge with a reason',
      response(401, '<html><title>401 Unauthorized</title></html>', {
        'www-authenticate': 'Bearer error="invalid_token", error_description="The access token expired"',
      }),
      { description: 'an HTML page "401 Unauthorized": The access token expired', challenged: true },
    ],
    [
      'a bare Bearer challenge',
      response(401, '', { 'www-authenticate': 'Bearer realm="keystone"' }),
      { description: 'Bearer realm="keystone"', challenged: true },
    ],
    [
      'a challenge of another scheme',
      response(401, 'denied', { 'www-authenticate': 'Basic realm="x"' }),
      { description: 'denied', challenged: false },
    ],
  ])('%s', (_, res, expected) => {
    expect(serverError(res)).toMatchObject(expected);
  });

  it('redacts a registered secret the server echoes', () => {
    registerSecret('echoed-client-secret-77');
    expect(
      serverError(response(400, '{"error":"invalid_request","error_description":"bad secret echoed-client-secret-77"}'))
        .description,
    ).not.toContain('echoed-client-secret-77');
  });
});

describe('brokerAdvice: OAuth answers of the broker and the identity provider', () => {
  it.each<[string, Partial<ServerError>, 'broker' | 'idp', RegExp, string[]]>([
    [
      'invalid_client at the broker',
      { status: 401, code: 'invalid_client' },
      'broker',
      /rejected the client/,
      ['client_id "cloudgate"', 'client_secret', 'realm cloud'],
    ],
    [
      'unauthorized_client at the broker',
      { status: 400, code: 'unauthorized_client' },
      'broker',
      /rejected the client/,
      ['client_id "cloudgate"'],
    ],
    [
      'invalid_client at the identity provider',
      { status: 401, code: 'invalid_client' },
      'idp',
      /rejected the client/,
      ['idp_client_id "idp-cg"', 'idp_client_secret'],
    ],
    [
      'access_denied',
      { status: 403, code: 'access_denied' },
      'broker',
      /does not permit this client to exchange/,
      ['client "cloudgate"', 'token-exchange'],
    ],
    [
      '"not allowed to exchange" in the text',
      { status: 403, code: 'invalid_request', description: 'Client not allowed to exchange' },
      'broker',
      /does not permit/,
      ['token-exchange'],
    ],
    [
      'subject_issuer not supported (standard exchange)',
      { code: 'invalid_request', description: 'Parameter subject_issuer is not supported' },
      'broker',
      /refuses subject_issuer/,
      ['Remove subject_issuer', 'legacy token exchange'],
    ],
    [
      'invalid_issuer',
      { code: 'invalid_issuer', description: 'Invalid subject_issuer' },
      'broker',
      /does not know subject_issuer/,
      ['Set subject_issuer'],
    ],
    [
      'invalid_token without subject_issuer',
      { code: 'invalid_token', description: 'Invalid token' },
      'broker',
      /rejected the subject token/,
      ['set subject_issuer'],
    ],
    [
      'an expired token in invalid_request',
      { code: 'invalid_request', description: 'Token is not active' },
      'broker',
      /rejected the subject token/,
      ['expired'],
    ],
    ['invalid_scope', { code: 'invalid_scope' }, 'idp', /refused the scope/, ['idp_scope "openid email"']],
    ['404 at the identity provider', { status: 404 }, 'idp', /answered 404/, ['idp_token_url']],
    [
      '404 at the broker',
      { status: 404 },
      'broker',
      /^Not found/,
      ['broker_url', 'realm ("cloud")', '/realms/<realm>/protocol/openid-connect/token'],
    ],
    ['anything else', { status: 500, description: 'boom' }, 'broker', /answered 500 boom/, ['--verbose']],
  ])('%s', (_, e, party, message, named) => {
    const { message: said, advice } = brokerAdvice(error(e), SETTINGS, party);
    expect(said).toMatch(message);
    for (const name of named) expect(advice).toContain(name);
  });

  // Keycloak's own words: each names one cause, and only that cause is offered.
  it.each<[string, Partial<ServerError>, Parameters<typeof brokerAdvice>[3], RegExp, RegExp | undefined]>([
    [
      'a wrong secret of a client that exists',
      { status: 401, code: 'unauthorized_client', description: 'Invalid client or Invalid client credentials' },
      {},
      /Wrong client secret: client "cloudgate" exists/,
      /audience/,
    ],
    [
      'a client id the realm does not know',
      { status: 400, code: 'unauthorized_client', description: 'Invalid client credentials' },
      {},
      /No enabled client "cloudgate" in realm cloud: check client_id/,
      /secret/,
    ],
    [
      'a client without a service account',
      { status: 401, code: 'unauthorized_client', description: 'Client not enabled to retrieve service account' },
      { grant: 'client_credentials' },
      /service account/,
      /secret/,
    ],
    [
      'a client without direct access grants',
      { status: 400, code: 'unauthorized_client', description: 'Client not allowed for direct access grants' },
      { grant: 'password' },
      /Direct access grants/,
      /secret/,
    ],
    [
      "a user's wrong password",
      { status: 401, code: 'invalid_grant', description: 'Invalid user credentials' },
      { grant: 'password' },
      /Wrong username or password/,
      /client secret/,
    ],
    [
      'the standard exchange refusing the audience',
      { status: 403, code: 'access_denied', description: 'Client is not within the token audience' },
      { grant: 'exchange' },
      /audience must include the exchanging client "cloudgate"/,
      /token-exchange permission/,
    ],
    [
      'the standard exchange switched off for the client',
      {
        status: 400,
        code: 'invalid_request',
        description: 'Standard token exchange is not enabled for the requested client',
      },
      {},
      /Standard token exchange/,
      /audience/,
    ],
    [
      'a realm that does not exist',
      { status: 404, code: 'Realm does not exist' },
      { url: 'https://kc.test/realms/cloud/protocol/openid-connect/token' },
      /no realm "cloud"/,
      /\/auth/,
    ],
    [
      'the /auth prefix on a Keycloak 17 or later',
      {
        status: 404,
        code: 'Unable to find matching target resource method',
        description: 'For more on this error consult the server log at the debug level.',
      },
      { url: 'https://kc.test/auth/realms/cloud/protocol/openid-connect/token' },
      /remove \/auth from broker_url \(https:\/\/kc\.test\/realms\/cloud\/protocol\/openid-connect\/token\)/,
      /realm "cloud"/,
    ],
    [
      'Keycloak 17-21 saying the same with RESTEASY',
      {
        status: 404,
        code: 'RESTEASY003210: Could not find resource for full path: https://kc.test/auth/realms/cloud/protocol/openid-connect/token',
      },
      { url: 'https://kc.test/auth/realms/cloud/protocol/openid-connect/token' },
      /remove \/auth/,
      undefined,
    ],
    [
      'a 404 page of no Keycloak at a path without /auth',
      { status: 404, description: 'an HTML page "404 Not Found"' },
      { url: 'https://kc.test/realms/cloud/protocol/openid-connect/token' },
      /version 16 or older .* \/auth/,
      undefined,
    ],
    [
      'plain HTTP to the TLS port',
      {
        status: 400,
        description:
          'an HTML page "400 Bad Request": Reason: You\'re speaking plain HTTP to an SSL-enabled server port.',
      },
      {},
      /write https:\/\/ in broker_url/,
      /secret/,
    ],
    [
      'a grant the broker does not offer',
      { status: 400, code: 'unsupported_grant_type', description: 'Unsupported grant_type' },
      { grant: 'client_credentials' },
      /Enable the client credentials grant/,
      undefined,
    ],
  ])('%s', (_, e, request, advice, notAdvice) => {
    const said = brokerAdvice(error(e), SETTINGS, 'broker', request).advice;
    expect(said).toMatch(advice);
    if (notAdvice) expect(said).not.toMatch(notAdvice);
  });

  it('names the identity provider alias when subject_issuer is set', () => {
    expect(brokerAdvice(error({ code: 'invalid_token' }), { ...SETTINGS, subjectIssuer: 'corp-idp' }).advice).toContain(
      '"corp-idp" of realm cloud',
    );
  });
});

describe("identityAdvice: the identity service's answers", () => {
  const token = { issuer: 'https://kc.test/realms/cloud', secondsLeft: 120, expiresAt: '2031-01-01T00:00:00Z' };
  const expired = { ...token, secondsLeft: -5 };
  it.each<[string, Partial<ServerError>, Parameters<typeof identityAdvice>[2], RegExp, string[]]>([
    [
      'no mapping rule matched',
      { status: 401, keystone: true, description: 'Could not map any federated user properties to identity values' },
      {},
      /mapped nothing/,
      ['identity provider "corp"', 'openstack mapping show'],
    ],
    [
      'an unsupported method not in [auth] methods',
      { status: 401, keystone: true, description: 'unsupported method', methods: ['password', 'token'] },
      {},
      /It accepts: password, token/,
      ['[auth] methods', 'methods = password,token,openid'],
    ],
    [
      'an unsupported method that is listed',
      { status: 401, keystone: true, description: 'unsupported method', methods: ['password', 'openid'] },
      {},
      /does not accept protocol "openid"/,
      ['restarted'],
    ],
    [
      'an unknown protocol',
      { status: 404, keystone: true, description: 'Could not find federated protocol openid' },
      {},
      /Protocol not found/,
      ['federation protocol list --identity-provider corp'],
    ],
    [
      'an unknown identity provider',
      { status: 404, keystone: true, description: 'Could not find Identity Provider: corp' },
      {},
      /Identity provider not found/,
      ['idp_id', 'OS_IDENTITY_PROVIDER'],
    ],
    [
      'an issuer not among the remote ids',
      { status: 401, keystone: true, description: 'issuer is not included among the accepted identifiers' },
      { token },
      /issuer is not accepted/,
      ['--remote-id <iss> corp', '"https://kc.test/realms/cloud"'],
    ],
    [
      'no role on the project',
      { status: 401, keystone: true, description: 'User u-42 has no access to project p-7.' },
      {},
      /No access to the project/,
      ['openstack role add --user u-42 --project p-7 member'],
    ],
    [
      'a fernet token from elsewhere',
      { status: 404, keystone: true, description: 'Could not recognize Fernet token' },
      {},
      /does not recognise the token/,
      ['fernet keys'],
    ],
    [
      'an expired or revoked token',
      { status: 404, keystone: true, description: 'Failed to validate token' },
      {},
      /no longer valid/,
      ['run the chain again'],
    ],
    [
      'a bare 403 at the federated sign-in',
      { status: 403, keystone: true, description: 'You are not authorized' },
      { step: 'federated', token },
      /refused the federated sign-in/,
      ['openstack identity provider show corp', 'set --remote-id https://kc.test/realms/cloud corp', '--enable corp'],
    ],
    [
      'a 401 from the module in front: no bearer token',
      { status: 401, challenged: true, description: 'No bearer token found in the request' },
      { step: 'federated', token },
      /mod_auth_openidc/,
      ['Authorization through'],
    ],
    [
      'a 401 from the module in front: an expired token',
      { status: 401, challenged: true, description: 'invalid_token' },
      { step: 'federated', token: expired },
      /mod_auth_openidc/,
      ['already expired (exp 2031-01-01T00:00:00Z)'],
    ],
    [
      'a 401 from the module in front: signature or key set',
      { status: 401, challenged: true, description: 'invalid_token' },
      { step: 'federated', token },
      /mod_auth_openidc/,
      ['OIDCOAuthVerifyJwksUri', 'https://kc.test/realms/cloud/protocol/openid-connect/certs'],
    ],
    [
      "Keystone's own 401 after the module let the token through",
      { status: 401, keystone: true, description: 'The request you have made requires authentication.' },
      { step: 'federated' },
      /accepted the broker token but signed no one in/,
      ['protocol openid', 'openstack mapping show'],
    ],
    [
      'a 401 at a later step',
      { status: 401, keystone: true, description: 'The request you have made requires authentication.' },
      { step: 'projects' },
      /refused the token/,
      ['fernet keys'],
    ],
    [
      '404',
      { status: 404, keystone: false, description: 'Not Found' },
      { step: 'projects' },
      /^Not found/,
      ['identity_url', 'federation_prefix', 'idp_id'],
    ],
    [
      'anything else',
      { status: 500, keystone: true, description: 'oops' },
      { step: 'scope' },
      /answered 500/,
      ['--verbose'],
    ],
    [
      'an unsupported method, another protocol proven to sign the token in',
      { status: 401, keystone: true, description: 'unsupported method', methods: ['password', 'token', 'openid'] },
      { step: 'federated', working_protocol: 'openid' },
      /signs in with protocol "openid"/,
      ['Set protocol (OS_PROTOCOL, clouds.yaml auth.protocol) to openid', 'Only if'],
    ],
    [
      'an identity URL in a version Keystone does not serve',
      { status: 404, description: 'an HTML page "404 Not Found"' },
      { step: 'federated', v3_url: 'https://keystone.test/v3' },
      /does not serve: its version document names v3 at https:\/\/keystone\.test\/v3/,
      ['Set identity_url (OS_AUTH_URL, clouds.yaml auth_url) to https://keystone.test/v3'],
    ],
    [
      'plain HTTP to the TLS port of the identity service',
      {
        status: 400,
        description:
          'an HTML page "400 Bad Request": Reason: You\'re speaking plain HTTP to an SSL-enabled server port.',
      },
      { step: 'federated' },
      /answered 400/,
      ['write https:// in identity_url'],
    ],
  ])('%s', (_, e, context, message, named) => {
    const { message: said, advice } = identityAdvice(
      error(e),
      { ...SETTINGS, identityUrl: 'https://keystone.test/v2.0' },
      context,
    );
    expect(said).toMatch(message);
    for (const name of named) expect(advice).toContain(name);
  });
});
