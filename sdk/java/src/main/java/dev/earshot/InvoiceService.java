package dev.earshot;

import dev.earshot.models.Invoice;
import dev.earshot.models.InvoiceListParams;

/** The invoice history: GET /billing/invoices. */
public final class InvoiceService {
  private final Transport transport;

  InvoiceService(Transport transport) {
    this.transport = transport;
  }

  /** The invoices, newest first. */
  public PagedList<Invoice> list(InvoiceListParams params) {
    return new PagedList<>(transport, "/billing/invoices", params, Invoice.class);
  }
}
