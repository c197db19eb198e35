// The few parts of oidc-provider (9.x) the LINE stand-in uses; the package ships no types.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  type Claims = Record<string, unknown> & { sub: string };
  type Configuration = {
    clients: Record<string, unknown>[];
    routes?: Record<string, string>;
    scopes?: string[];
    claims?: Record<string, string[]>;
    conformIdTokenClaims?: boolean;
    enabledJWA?: Record<string, string[]>;
    features?: Record<string, { enabled: boolean }>;
    interactions?: { url(ctx: unknown, interaction: { uid: string }): string };
    cookies?: { keys: string[] };
    ttl?: Record<string, number>;
    findAccount(ctx: unknown, sub: string): Promise<{ accountId: string; claims(): Promise<Claims> } | undefined>;
  };
  class Grant {
    constructor(init: { accountId: string; clientId: string });
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    Grant: typeof Grant;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<{ uid: string; prompt: { name: string } }>;
    interactionFinished(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<void>;
  }
}
