package dev.earshot;

/**
 * One event of the stream.
 *
 * @param position where the stream is after this event; {@link StreamParams#after} resumes from it
 * @param event the event
 * @param raw the event's JSON as the server sent it
 */
public record StreamEvent(String position, StoredEvent event, String raw) {}
