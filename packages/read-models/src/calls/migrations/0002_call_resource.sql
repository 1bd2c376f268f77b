-- The call as the API shows it (CallResourceSchema), as JSON text: the
-- projector renders it whenever it writes the row (callRow), so GET /calls
-- sends a page as its rows' texts. Rows written before it have none until
-- they are written again or rebuilt; reads render those themselves. Not
-- filled in here: rewriting every call in one migration would hold the
-- table, and the migration, for minutes on a large store.
alter table calls add column resource text;
