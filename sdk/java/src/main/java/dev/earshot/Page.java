package dev.earshot;

import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.function.Function;

/**
 * One page of a list: its items and the cursor of the next page.
 *
 * @param <T> the model listed
 */
public final class Page<T> {
  private final List<T> items;
  private final String nextCursor;
  private final Function<String, Page<T>> fetch;

  Page(List<T> items, String nextCursor, Function<String, Page<T>> fetch) {
    this.items = List.copyOf(items);
    this.nextCursor = nextCursor;
    this.fetch = fetch;
  }

  /** The page's items, in the server's order. */
  public List<T> items() {
    return items;
  }

  /** The cursor of the next page; empty on the last page. */
  public Optional<String> nextCursor() {
    return Optional.ofNullable(nextCursor);
  }

  /** Whether another page follows this one. */
  public boolean hasNextPage() {
    return nextCursor != null;
  }

  /** Fetches the page after this one. */
  public Page<T> nextPage() {
    if (nextCursor == null) throw new NoSuchElementException("this is the last page");
    return fetch.apply(nextCursor);
  }
}
