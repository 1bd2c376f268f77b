-- The data key a dead letter's body is sealed with (its tenant's), as the
-- dead-letter topic carries it; null for a body stored in the clear. The body
-- stays sealed here too, so erasing the tenant's key erases it, even in rows a
-- rebuild from the topic brings back.
alter table dead_letters add column sealed_with text;
