import type { RequestOptions } from '../http.js';
import type {
  ProviderConnection,
  ProviderConnectionCreateParams,
  ProviderConnectionDeleted,
  ProviderConnectionIssued,
  ProviderConnectionListParams,
  ProviderCredentialRotateParams,
  Success,
} from '../models.js';
import type { PagedList } from '../pagination.js';
import { Resource, segment } from './resource.js';

type ConnectionAnswer = Success<'/api/v1/providers/{id}', 'get'>;

/** `earshot.providers`: the voice providers' webhook connections (needs `providers:read`, `providers:write`). */
export class Providers extends Resource {
  /** Connects a provider; the answer's `webhookUrl` is what to paste there, its Standard Webhooks `secret` is shown only here. */
  connect(connection: ProviderConnectionCreateParams, options?: RequestOptions): Promise<ProviderConnectionIssued> {
    return this.send('POST', '/providers', connection, options);
  }

  /** The tenant's connections, filtered by `provider` and `status`. */
  list(params: ProviderConnectionListParams = {}, options?: RequestOptions): PagedList<ProviderConnection> {
    return this.paged('/providers', params, options);
  }

  /** One connection (never its credentials). */
  async retrieve(id: string, options?: RequestOptions): Promise<ProviderConnection> {
    return (await this.read<ConnectionAnswer>(`/providers/${segment(id)}`, undefined, options)).connection;
  }

  /** New credentials (or a new secret); the previous ones keep verifying for `overlapSeconds`. */
  rotate(id: string, rotation: ProviderCredentialRotateParams = {}, options?: RequestOptions): Promise<ProviderConnectionIssued> {
    return this.send('POST', `/providers/${segment(id)}/rotate`, rotation, options);
  }

  /** Stops taking the provider's deliveries: its webhook answers 403 until enabled again. */
  async disable(id: string, options?: RequestOptions): Promise<ProviderConnection> {
    return (await this.send<ConnectionAnswer>('POST', `/providers/${segment(id)}/disable`, {}, options)).connection;
  }

  /** Takes the provider's deliveries again. */
  async enable(id: string, options?: RequestOptions): Promise<ProviderConnection> {
    return (await this.send<ConnectionAnswer>('POST', `/providers/${segment(id)}/enable`, {}, options)).connection;
  }

  /** Deletes the connection; its webhook URL answers 404 from then on. */
  delete(id: string, options?: RequestOptions): Promise<ProviderConnectionDeleted> {
    return this.send('DELETE', `/providers/${segment(id)}`, undefined, options);
  }
}
