import type { RequestOptions } from '../http.js';
import type {
  APIKey,
  KeyCreateParams,
  KeyListParams,
  KeyWithSecret,
  KeyRotateParams,
  WebhookSecretRotation,
  Success,
  WebhookSecretRotateParams,
} from '../models.js';
import type { PagedList } from '../pagination.js';
import { Resource, segment } from './resource.js';

type KeyAnswer = Success<'/api/v1/keys/{id}', 'get'>;

/** `earshot.keys`: the tenant's API keys (needs a key with `keys:write`). */
export class Keys extends Resource {
  /** Makes a key; its secret is in the answer, and only there. */
  create(key: KeyCreateParams, options?: RequestOptions): Promise<KeyWithSecret> {
    return this.send('POST', '/keys', key, options);
  }

  /** The tenant's keys, filtered by `workspace` and `status`. */
  list(params: KeyListParams = {}, options?: RequestOptions): PagedList<APIKey> {
    return this.paged('/keys', params, options);
  }

  /** One key (never its secret). */
  async retrieve(id: string, options?: RequestOptions): Promise<APIKey> {
    return (await this.read<KeyAnswer>(`/keys/${segment(id)}`, undefined, options)).key;
  }

  /** A new secret for the key; the previous one keeps working for `overlapSeconds`. */
  rotate(id: string, rotation: KeyRotateParams = {}, options?: RequestOptions): Promise<KeyWithSecret> {
    return this.send('POST', `/keys/${segment(id)}/rotate`, rotation, options);
  }

  /** Revokes the key at once. */
  async revoke(id: string, options?: RequestOptions): Promise<APIKey> {
    return (await this.send<KeyAnswer>('POST', `/keys/${segment(id)}/revoke`, {}, options)).key;
  }
}

/** `earshot.webhookSecret`: the secret that signs ingest requests. */
export class WebhookSecret extends Resource {
  /** A new webhook secret; the previous one keeps verifying for `overlapSeconds`. */
  rotate(rotation: WebhookSecretRotateParams = {}, options?: RequestOptions): Promise<WebhookSecretRotation> {
    return this.send('POST', '/webhook-secret/rotate', rotation, options);
  }
}
