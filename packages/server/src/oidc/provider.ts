import type * as openid from 'openid-client';
import { importFor } from '../app/optional-module.js';

/** openid-client is loaded by the first sign-in, not at every start (app/optional-module.ts). */
const loadClient = () => importFor('OpenID Connect sign-in', 'openid-client', () => import('openid-client'));

/** What the server needs to know about a person a provider signed in. */
export interface IdentityClaims {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  givenName: string | null;
  familyName: string | null;
  name: string | null;
}

/**
 * A third-party sign-in provider (authorization-code flow with PKCE). Injected into createApp,
 * so tests can point it at a local OpenID provider and production at Google.
 */
export interface IdentityProvider {
  readonly id: string;
  readonly label: string;
  authorizationUrl(params: { redirectUri: string; state: string; nonce: string; codeVerifier: string }): Promise<URL>;
  /** Exchanges the code of the callback URL; checks state, nonce, PKCE and the ID token. */
  exchange(params: { callbackUrl: URL; state: string; nonce: string; codeVerifier: string }): Promise<IdentityClaims>;
}

export interface OpenIdConnectOptions {
  id: string;
  label: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  scope?: string;
}

/** Any OpenID Connect provider found by discovery (Google by default), through openid-client. */
export class OpenIdConnectProvider implements IdentityProvider {
  readonly id: string;
  readonly label: string;
  private configuration: Promise<openid.Configuration> | undefined;

  constructor(private readonly options: OpenIdConnectOptions) {
    this.id = options.id;
    this.label = options.label;
  }

  private config(): Promise<openid.Configuration> {
    if (!this.configuration) {
      const issuer = new URL(this.options.issuer);
      // Plain HTTP only for a provider on this machine (tests, development).
      const local = issuer.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(issuer.hostname);
      this.configuration = loadClient()
        // The ID token's signature is checked against the provider's JWKS even though it comes
        // straight from the token endpoint (openid-client skips it by default, as OpenID Connect
        // allows over TLS): a token signed by a key the provider does not publish is refused, not
        // trusted for the connection it came over (docs/security.md, "Google sign-in").
        .then((client) =>
          client.discovery(issuer, this.options.clientId, this.options.clientSecret, undefined, {
            execute: local ? [client.enableNonRepudiationChecks, client.allowInsecureRequests] : [client.enableNonRepudiationChecks],
          }),
        )
        .catch((err) => {
          this.configuration = undefined; // try discovery again on the next sign-in
          throw err;
        });
    }
    return this.configuration;
  }

  async authorizationUrl(params: { redirectUri: string; state: string; nonce: string; codeVerifier: string }): Promise<URL> {
    const config = await this.config();
    const client = await loadClient();
    return client.buildAuthorizationUrl(config, {
      redirect_uri: params.redirectUri,
      scope: this.options.scope ?? 'openid email profile',
      response_type: 'code',
      state: params.state,
      nonce: params.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(params.codeVerifier),
      code_challenge_method: 'S256',
    });
  }

  async exchange(params: { callbackUrl: URL; state: string; nonce: string; codeVerifier: string }): Promise<IdentityClaims> {
    const config = await this.config();
    const client = await loadClient();
    const tokens = await client.authorizationCodeGrant(config, params.callbackUrl, {
      pkceCodeVerifier: params.codeVerifier,
      expectedState: params.state,
      expectedNonce: params.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw new Error('the provider returned no ID token');
    const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
    return {
      subject: claims.sub,
      email: str(claims.email),
      emailVerified: claims.email_verified === true || claims.email_verified === 'true',
      givenName: str(claims.given_name),
      familyName: str(claims.family_name),
      name: str(claims.name),
    };
  }
}
