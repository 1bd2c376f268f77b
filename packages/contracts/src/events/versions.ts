/** Event schema versions Earshot accepts, oldest first; each has a schema file per event type under schemas/. */
export const EVENT_VERSIONS = ['2026-01-01'] as const;

export type EventVersion = (typeof EVENT_VERSIONS)[number];

/** The newest version: what Earshot's own writes use and what readers resolve older events to. */
export const CURRENT_EVENT_VERSION = '2026-01-01' satisfies EventVersion;
