import type { RequestOptions } from '../http.js';
import type { WriteResult, Outcome, OutcomeCreateParams, OutcomeListParams } from '../models.js';
import type { PagedList } from '../pagination.js';
import { Resource } from './resource.js';

/** `earshot.outcomes`: what calls achieved (a booking, a sale, a refund). */
export class Outcomes extends Resource {
  /** Outcomes, filtered by `callId`; `limit` per page (default 100). */
  list(params: OutcomeListParams = {}, options?: RequestOptions): PagedList<Outcome> {
    return this.paged('/outcomes', params, options);
  }

  /** Records an outcome (an upsert by `id`); answers once it is stored. */
  create(outcome: OutcomeCreateParams, options?: RequestOptions): Promise<WriteResult> {
    return this.send('POST', '/outcomes', outcome, options);
  }
}
