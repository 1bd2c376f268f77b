package dev.earshot;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.StreamSupport;

/**
 * Every item of a list, page after page: iterating follows the cursor, and
 * fetches a page only when the items before it are used up. {@link #firstPage()}
 * is the explicit page API.
 *
 * @param <T> the model listed
 */
public final class PagedList<T> implements Iterable<T> {
  private final Transport transport;
  private final String path;
  private final String query;
  private final JavaType itemsType;

  PagedList(Transport transport, String path, Object params, Class<T> type) {
    this.transport = transport;
    this.path = path;
    this.query = Transport.queryOf(params);
    this.itemsType = Transport.JSON.getTypeFactory().constructCollectionType(List.class, type);
  }

  /** The first page. */
  public Page<T> firstPage() {
    return page(null);
  }

  private Page<T> page(String cursor) {
    String separator = query.isEmpty() ? "?" : "&";
    String target = path + query + (cursor == null ? "" : separator + "cursor=" + java.net.URLEncoder.encode(cursor, java.nio.charset.StandardCharsets.UTF_8));
    JsonNode answer = Transport.decode(transport.send("GET", target, null, null, RequestOptions.NONE, null), JsonNode.class);
    List<T> items = Transport.JSON.convertValue(answer.get("items"), itemsType);
    JsonNode next = answer.get("nextCursor");
    return new Page<>(items, next == null || next.isNull() ? null : next.asText(), this::page);
  }

  @Override
  public Iterator<T> iterator() {
    return new Iterator<>() {
      private Page<T> page;
      private Iterator<T> items;

      @Override
      public boolean hasNext() {
        if (page == null) {
          page = firstPage();
          items = page.items().iterator();
        }
        while (!items.hasNext() && page.hasNextPage()) {
          page = page.nextPage();
          items = page.items().iterator();
        }
        return items.hasNext();
      }

      @Override
      public T next() {
        if (!hasNext()) throw new NoSuchElementException();
        return items.next();
      }
    };
  }

  /** The items as a sequential stream, fetched as it is consumed. */
  public java.util.stream.Stream<T> stream() {
    return StreamSupport.stream(Spliterators.spliteratorUnknownSize(iterator(), Spliterator.ORDERED), false);
  }
}
