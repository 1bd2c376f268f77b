import type { ProviderName } from '@earshot/contracts';

/**
 * The origin providers reach Earshot at: EARSHOT_PUBLIC_URL where set, else
 * the request's own scheme and host (through the trusted proxies' headers).
 */
export function publicOrigin(publicUrl: string | undefined, request: { protocol: string; host: string }): string {
  return publicUrl ?? `${request.protocol}://${request.host}`;
}

/** Where a connection's provider posts: `{base}/webhooks/providers/{provider}/{id}`. */
export function webhookUrl(origin: string, provider: ProviderName, id: string): string {
  return `${origin}/api/v1/webhooks/providers/${provider}/${id}`;
}
