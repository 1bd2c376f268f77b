package dev.earshot;

import dev.earshot.models.Tenant;

/** The calling key's tenant: GET /tenant. Any key may ask, whatever its scopes. */
public final class TenantService {
  private final Transport transport;

  TenantService(Transport transport) {
    this.transport = transport;
  }

  /** The key's tenant: its id, name and status. */
  public Tenant retrieve() {
    return transport.member("GET", "/tenant", "tenant", null, Tenant.class, RequestOptions.NONE);
  }
}
