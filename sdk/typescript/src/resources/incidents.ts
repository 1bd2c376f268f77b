import type { RequestOptions } from '../http.js';
import type { WriteResult, Incident, IncidentUpdateParams, IncidentCreateParams, IncidentListParams } from '../models.js';
import type { PagedList } from '../pagination.js';
import { Resource, segment } from './resource.js';

/** `earshot.incidents`: incidents opened by people or by alerts. */
export class Incidents extends Resource {
  /** Incidents, filtered by `status`. */
  list(params: IncidentListParams = {}, options?: RequestOptions): PagedList<Incident> {
    return this.paged('/incidents', params, options);
  }

  /** Opens an incident. */
  create(incident: IncidentCreateParams, options?: RequestOptions): Promise<WriteResult> {
    return this.send('POST', '/incidents', incident, options);
  }

  /** Changes an incident's status, severity or text, or adds a note. */
  update(id: string, change: IncidentUpdateParams, options?: RequestOptions): Promise<WriteResult> {
    return this.send('PATCH', `/incidents/${segment(id)}`, change, options);
  }
}
