"""``client.invoices`` and ``client.audit``."""

from __future__ import annotations

from typing import Any

from .._pagination import AsyncPagedList, SyncPagedList
from ..models import AuditEntry, AuditListParams, Invoice, InvoiceListParams
from ._base import AsyncResource, SyncResource, params


class Invoices(SyncResource):
    """The tenant's invoice history."""

    def list(self, **filters: Any) -> SyncPagedList[Invoice]:
        """Invoices, newest first."""
        return self._list("/billing/invoices", params(InvoiceListParams, filters), Invoice)


class AsyncInvoices(AsyncResource):
    """The tenant's invoice history."""

    def list(self, **filters: Any) -> AsyncPagedList[Invoice]:
        """Invoices, newest first."""
        return self._list("/billing/invoices", params(InvoiceListParams, filters), Invoice)


class AuditLog(SyncResource):
    """Who did what with the tenant's keys, settings and records."""

    def list(self, **filters: Any) -> SyncPagedList[AuditEntry]:
        """Audit entries, newest first, filtered by ``action``."""
        return self._list("/audit", params(AuditListParams, filters), AuditEntry)


class AsyncAuditLog(AsyncResource):
    """Who did what with the tenant's keys, settings and records."""

    def list(self, **filters: Any) -> AsyncPagedList[AuditEntry]:
        """Audit entries, newest first, filtered by ``action``."""
        return self._list("/audit", params(AuditListParams, filters), AuditEntry)
