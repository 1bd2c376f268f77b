package dev.earshot;

import dev.earshot.models.Incident;
import dev.earshot.models.IncidentCreateParams;
import dev.earshot.models.IncidentListParams;
import dev.earshot.models.IncidentUpdateParams;
import dev.earshot.models.WriteResult;

/** Incidents: GET, POST /incidents and PATCH /incidents/{id}. */
public final class IncidentService {
  private final Transport transport;

  IncidentService(Transport transport) {
    this.transport = transport;
  }

  /** The incidents that match params (null for all). */
  public PagedList<Incident> list(IncidentListParams params) {
    return new PagedList<>(transport, "/incidents", params, Incident.class);
  }

  /** Opens an incident. */
  public WriteResult create(IncidentCreateParams params) {
    return transport.call("POST", "/incidents", null, params, WriteResult.class, RequestOptions.NONE);
  }

  /** Changes an incident (status, severity, text, affected agents and calls) or adds a note. */
  public WriteResult update(String id, IncidentUpdateParams params) {
    return transport.call("PATCH", Transport.path("/incidents/%s", id), null, params, WriteResult.class, RequestOptions.NONE);
  }
}
