-- Each call also as GET /calls shows it (CallResourceSchema), rendered as
-- JSON by a trigger whenever its row is written. A list page is then its
-- rows' `resource` as they lie: rendering 26 columns a row on each read had
-- cost the query service two thirds of a list request's CPU, and to_json in
-- the read statement cost Postgres nearly as much. A call is written a few
-- times and read many.
--
-- Rows written before this migration keep a null `resource`, and reads render
-- those as they go (earshot_call_resource): rendering them all here would hold
-- the table locked for as long as it takes. A replay renders every row.
alter table calls add column resource text;
create trigger calls_resource before insert or update on calls for each row execute function earshot_render_call_resource();
