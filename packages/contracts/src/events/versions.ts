/**
 * Event schema versions Earshot accepts, oldest first. An event of a version
 * is written with its type's newest file under schemas/ dated on or before it.
 * 2026-11-22: incidents gain the status `acknowledged`.
 * 2026-11-24: agent.response.generated reports a turn in parts (each latency
 * part optional) and gains transcription_delay_ms, e2e_ms and unattributed_ms.
 */
export const EVENT_VERSIONS = ['2026-01-01', '2026-11-22', '2026-11-24'] as const;

export type EventVersion = (typeof EVENT_VERSIONS)[number];

/** The newest version: what Earshot's own writes use and what readers resolve older events to. */
export const CURRENT_EVENT_VERSION = '2026-11-24' satisfies EventVersion;
