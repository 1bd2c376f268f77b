import type { RequestOptions } from '../http.js';
import type { Success, Tenant } from '../models.js';
import { Resource } from './resource.js';

/** `earshot.tenant`: whose key this is; any key may ask, whatever its scopes. */
export class OwnTenant extends Resource {
  /** The calling key's tenant: its id, name and status. */
  async retrieve(options?: RequestOptions): Promise<Tenant> {
    return (await this.read<Success<'/api/v1/tenant', 'get'>>('/tenant', undefined, options)).tenant;
  }
}
