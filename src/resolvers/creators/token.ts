/**
 * The Creators API's token requests (research/upstreams.md §1.2): Cognito (2.x) takes a form body
 * with scope `creatorsapi/default`, Login with Amazon (3.x) a JSON body with scope
 * `creatorsapi::default`. The cache itself is ../oauth-token.ts.
 */
import type { TokenRequest } from '../oauth-token.js';
import type { CreatorsCredential } from './config.js';

/** `Authorization` value for the catalog API: 2.x adds `, Version x.y`, 3.x does not. */
export function authorizationHeader(credential: CreatorsCredential, token: string): string {
  return credential.provider === 'cognito' ? `Bearer ${token}, Version ${credential.version}` : `Bearer ${token}`;
}

/** The token request of `c`, secrets read when it is sent. */
export function creatorsTokenRequest(c: CreatorsCredential): TokenRequest {
  return () => {
    const id = c.credential_id.reveal();
    const secret = c.credential_secret.reveal();
    const cognito = c.provider === 'cognito';
    return {
      method: 'POST',
      url: c.token_url,
      headers: {
        'content-type': cognito ? 'application/x-www-form-urlencoded' : 'application/json',
        accept: 'application/json',
      },
      body: cognito
        ? new URLSearchParams({ grant_type: 'client_credentials', client_id: id, client_secret: secret, scope: 'creatorsapi/default' }).toString()
        : { grant_type: 'client_credentials', client_id: id, client_secret: secret, scope: 'creatorsapi::default' },
    };
  };
}
