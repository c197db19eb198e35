declare module "web-push-testing/src/PushApiModel.js" {
  export class SubscriptionExpiredError extends Error {}
  export class PushApiModel {
    notifyUrl: string;
    messages: Record<string, string[]>;
    subscribe(options: { applicationServerKey: string }): Promise<{ endpoint: string; keys: { p256dh: string; auth: string }; clientHash: string }>;
    expireSubscription(clientHash: string): void;
    handleNotification(
      clientHash: string,
      headers: { encoding?: string; encryption?: string; cryptoKey?: string; authorization?: string; ttl?: string },
      body: Buffer,
    ): Promise<void>;
  }
}
