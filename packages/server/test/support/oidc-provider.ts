import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type JWK } from 'jose';

export interface ProviderUser {
  sub: string;
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  name?: string;
}

/**
 * How to spoil the next ID token (docs/security.md, "Google sign-in"): claims replaced or dropped,
 * another algorithm (`none`, or HS256 keyed with the client secret), a key the JWKS does not hold.
 */
export interface IdTokenForgery {
  claims?: Record<string, unknown>;
  omit?: string[];
  alg?: 'none' | 'HS256';
  /** Signed by a key of its own, under this key id (the JWKS's own `test-key` too: a wrong signature). */
  foreignKid?: string;
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The person signed in at the provider for the next authorization, or a refusal. */
  signIn(user: ProviderUser | { deny: true }): void;
  /** Spoils the next ID token only. */
  forgeNext(forgery: IdTokenForgery): void;
  /** What the token endpoint saw, for assertions on PKCE and client authentication. */
  tokenRequests: { codeVerifier: string | null; clientAuth: 'basic' | 'post' | 'none' }[];
  close(): Promise<void>;
}

/**
 * A small OpenID Connect provider on 127.0.0.1 (discovery, authorize, token, JWKS) that signs
 * real RS256 ID tokens and enforces what a real one does: registered redirect URI, client
 * secret, single-use codes, PKCE S256, nonce carried into the ID token.
 */
export async function startOidcProvider(options: { redirectUris?: string[] } = {}): Promise<TestProvider> {
  const clientId = 'bt-test-client';
  const clientSecret = randomBytes(16).toString('hex');
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  let current: ProviderUser | { deny: true } | null = null;
  let forgery: IdTokenForgery | null = null;
  const foreign = await generateKeyPair('RS256');
  const codes = new Map<string, { user: ProviderUser; nonce: string | null; challenge: string; redirectUri: string }>();
  const tokenRequests: TestProvider['tokenRequests'] = [];
  let issuer = '';

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
  };
  const readBody = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let data = '';
      req.on('data', (c) => (data += c));
      req.on('end', () => resolve(data));
    });

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    if (req.method === 'GET' && url.pathname === '/.well-known/openid-configuration') {
      return json(res, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
        code_challenge_methods_supported: ['S256'],
        scopes_supported: ['openid', 'email', 'profile'],
        authorization_response_iss_parameter_supported: true,
      });
    }
    if (req.method === 'GET' && url.pathname === '/jwks') return json(res, 200, { keys: [jwk] });
    if (req.method === 'GET' && url.pathname === '/authorize') {
      const q = url.searchParams;
      const redirectUri = q.get('redirect_uri') ?? '';
      if (q.get('client_id') !== clientId) return json(res, 400, { error: 'invalid_client' });
      if (options.redirectUris && !options.redirectUris.includes(redirectUri)) return json(res, 400, { error: 'invalid_redirect_uri' });
      if (!/^https?:\/\//.test(redirectUri)) return json(res, 400, { error: 'invalid_redirect_uri' });
      const back = new URL(redirectUri);
      const state = q.get('state');
      if (state) back.searchParams.set('state', state);
      back.searchParams.set('iss', issuer);
      const fail = (error: string) => {
        back.searchParams.set('error', error);
        res.writeHead(302, { location: back.toString() }).end();
      };
      if (q.get('response_type') !== 'code') return fail('unsupported_response_type');
      if (!(q.get('scope') ?? '').split(' ').includes('openid')) return fail('invalid_scope');
      if (q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge')) return fail('invalid_request');
      if (!current) return fail('login_required');
      if ('deny' in current) return fail('access_denied');
      const code = randomBytes(16).toString('base64url');
      codes.set(code, { user: current, nonce: q.get('nonce'), challenge: q.get('code_challenge')!, redirectUri });
      back.searchParams.set('code', code);
      res.writeHead(302, { location: back.toString() }).end();
      return;
    }
    if (req.method === 'POST' && url.pathname === '/token') {
      const form = new URLSearchParams(await readBody(req));
      let id = form.get('client_id');
      let secret = form.get('client_secret');
      let clientAuth: 'basic' | 'post' | 'none' = secret ? 'post' : 'none';
      const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
      if (basic) {
        const [u, p] = Buffer.from(basic[1], 'base64').toString().split(':').map(decodeURIComponent);
        id = u;
        secret = p;
        clientAuth = 'basic';
      }
      tokenRequests.push({ codeVerifier: form.get('code_verifier'), clientAuth });
      if (id !== clientId || secret !== clientSecret) return json(res, 401, { error: 'invalid_client' });
      if (form.get('grant_type') !== 'authorization_code') return json(res, 400, { error: 'unsupported_grant_type' });
      const code = form.get('code') ?? '';
      const grant = codes.get(code);
      codes.delete(code); // single use
      if (!grant) return json(res, 400, { error: 'invalid_grant' });
      if (form.get('redirect_uri') !== grant.redirectUri) return json(res, 400, { error: 'invalid_grant', error_description: 'redirect_uri' });
      const verifier = form.get('code_verifier') ?? '';
      if (createHash('sha256').update(verifier).digest('base64url') !== grant.challenge) return json(res, 400, { error: 'invalid_grant', error_description: 'PKCE' });
      const { sub, ...claims } = grant.user;
      const now = Math.floor(Date.now() / 1000);
      const forged = forgery;
      forgery = null;
      const payload: Record<string, unknown> = { ...claims, ...(grant.nonce ? { nonce: grant.nonce } : {}), iss: issuer, sub, aud: clientId, iat: now, exp: now + 300, ...forged?.claims };
      for (const name of forged?.omit ?? []) delete payload[name];
      let idToken: string;
      if (forged?.alg === 'none') {
        const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
        idToken = `${part({ alg: 'none', typ: 'JWT' })}.${part(payload)}.`;
      } else if (forged?.alg === 'HS256') {
        idToken = await new SignJWT(payload).setProtectedHeader({ alg: 'HS256', kid: 'test-key' }).sign(new TextEncoder().encode(clientSecret));
      } else {
        const kid = forged?.foreignKid ?? 'test-key';
        idToken = await new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid }).sign(forged?.foreignKid ? foreign.privateKey : privateKey);
      }
      return json(res, 200, { access_token: randomBytes(16).toString('hex'), token_type: 'Bearer', expires_in: 300, id_token: idToken, scope: 'openid email profile' });
    }
    json(res, 404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    clientId,
    clientSecret,
    signIn(user) {
      current = user;
    },
    forgeNext(next) {
      forgery = next;
    },
    tokenRequests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
