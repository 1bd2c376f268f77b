package dev.earshot;

import dev.earshot.models.AuditEntry;
import dev.earshot.models.AuditListParams;

/** The audit log: GET /audit. */
public final class AuditService {
  private final Transport transport;

  AuditService(Transport transport) {
    this.transport = transport;
  }

  /** The audit log's entries, newest first. */
  public PagedList<AuditEntry> list(AuditListParams params) {
    return new PagedList<>(transport, "/audit", params, AuditEntry.class);
  }
}
