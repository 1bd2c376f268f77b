-- A turn's stage breakdown under the API's field names (see 0003): what voice
-- frameworks measure per turn, eouMs + llmTtftMs + ttsTtfbMs + unattributedMs
-- = e2eMs, with sttMs running alongside eouMs.
create type turn_breakdown as ("eouMs" integer, "sttMs" integer, "llmTtftMs" integer, "ttsTtfbMs" integer, "e2eMs" integer, "unattributedMs" integer);
