/** A way of signing in that the workbench can offer. */
export type SignInScheme = 'basic' | 'bearer' | 'oidc';

/** The identity provider's login for the browser: authorization code with PKCE, by a public client. */
export interface BrowserLogin {
  /** The platform issuer (`iss` of its tokens). */
  issuer: string;
  /** A short name of the provider for the button ("Sign in with …"). */
  name: string;
  /** The workbench's public client (`IDP_WORKBENCH_CLIENT_ID`). */
  clientId: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  /** The scope to ask for. */
  scope: string;
}

/** `GET /api/workbench/auth`: whether the gateway checks credentials, and how the workbench can sign in. */
export interface WorkbenchAuthInfo {
  /** `AUTH_ENABLED`: calls outside the workbench area need credentials. */
  required: boolean;
  schemes: SignInScheme[];
  /** With `oidc` among the schemes. */
  browserLogin?: BrowserLogin;
  /** Why the provider's login is not offered although it is configured (its discovery failed). */
  browserLoginError?: string;
}

/** `GET /api/workbench/auth/session`: who the request's `Authorization` header signs in. */
export interface WorkbenchSessionCheck {
  scheme: 'basic' | 'bearer';
  /** The user name, or the token's `preferred_username` or `sub`. */
  subject: string;
  /** When the bearer token expires (ms since the epoch); absent for Basic. */
  expiresAt?: number;
}
