import type { RequestOptions } from '../http.js';
import type { Call, CallDetail, CallErased, CallEraseParams, CallListParams, Success } from '../models.js';
import type { PagedList } from '../pagination.js';
import { Resource, segment } from './resource.js';

/** `earshot.calls`: the tenant's calls. */
export class Calls extends Resource {
  /** Calls, newest first by default, filtered by `status`, `agentId`, `from`, `to`; `limit` per page (default 50). */
  list(params: CallListParams = {}, options?: RequestOptions): PagedList<Call> {
    return this.paged('/calls', params, options);
  }

  /** One call with its turns, transcript and traces; NotFoundError when the tenant has no such call. */
  async retrieve(id: string, options?: RequestOptions): Promise<CallDetail> {
    return (await this.read<Success<'/api/v1/calls/{id}', 'get'>>(`/calls/${segment(id)}`, undefined, options)).call;
  }

  /**
   * Erases a call: its data key is destroyed, so its events' personal fields in the log can no longer be read, and
   * its rows go. `reason` is kept in the audit log. Needs `calls:write`; NotFoundError when the tenant has no such call.
   */
  erase(id: string, params: CallEraseParams, options?: RequestOptions): Promise<CallErased> {
    return this.transport.request<CallErased>({ method: 'DELETE', path: `/calls/${segment(id)}`, query: { reason: params.reason } }, options);
  }
}
