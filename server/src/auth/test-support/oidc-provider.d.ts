// The parts of oidc-provider (v9, shipped without type declarations) that the test fixture uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface KoaContext {
    path: string;
    method: string;
    status: number;
    body: unknown;
    type: string;
    set(name: string, value: string): void;
    oidc: {
      params: Record<string, string | undefined>;
      client: { clientId: string };
      provider: Provider;
      result?: { consent?: { grantId?: string } };
      session?: { accountId?: string; grantIdFor(clientId: string): string | undefined };
    };
  }

  export type Middleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;

  export interface TokenModel {
    resourceServer?: unknown;
    save(): Promise<string>;
  }

  export interface IdTokenModel {
    scope: string;
    set(claim: string, value: unknown): void;
    issue(options: { use: 'idtoken' }): Promise<string>;
  }

  export class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    readonly issuer: string;
    proxy: boolean;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    use(middleware: Middleware): void;
    registerGrantType(name: string, handler: (ctx: KoaContext) => Promise<void>, params?: string[]): void;
    AccessToken: new (values: Record<string, unknown>) => TokenModel;
    RefreshToken: new (values: Record<string, unknown>) => TokenModel;
    IdToken: new (claims: Record<string, unknown>, options: { ctx: KoaContext }) => IdTokenModel;
    ResourceServer: new (identifier: string, info: Record<string, unknown>) => unknown;
    Grant: {
      new (values: { clientId: string; accountId?: string }): GrantModel;
      find(id: string): Promise<GrantModel | undefined>;
    };
  }

  export interface GrantModel {
    addOIDCScope(scope: string): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }

  export const errors: {
    InvalidGrant: new (description?: string) => Error;
    InvalidRequest: new (description?: string) => Error;
  };
}
