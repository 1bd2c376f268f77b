-- Invoices are a read model of the log now (the projector's billing_invoices,
-- from invoice.issued); this table never held any.
drop table invoices;
