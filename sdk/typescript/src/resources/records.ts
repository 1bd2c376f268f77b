import type { RequestOptions } from '../http.js';
import type { AuditEntry, AuditListParams, Invoice, InvoiceListParams } from '../models.js';
import type { PagedList } from '../pagination.js';
import { Resource } from './resource.js';

/** `earshot.invoices`: the tenant's invoice history. */
export class Invoices extends Resource {
  /** Invoices, newest first. */
  list(params: InvoiceListParams = {}, options?: RequestOptions): PagedList<Invoice> {
    return this.paged('/billing/invoices', params, options);
  }
}

/** `earshot.audit`: who did what with the tenant's keys, settings and records. */
export class AuditLog extends Resource {
  /** Audit entries, newest first, filtered by `action`. */
  list(params: AuditListParams = {}, options?: RequestOptions): PagedList<AuditEntry> {
    return this.paged('/audit', params, options);
  }
}
