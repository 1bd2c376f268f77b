package dev.earshot;

import static dev.earshot.LiveTarget.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.earshot.models.Call;
import dev.earshot.models.CallListParams;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class PaginationTest {
  @Test
  @DisplayName("[pagination] limit 7 iterates every call once in the server's order; firstPage and nextPage give the same pages")
  void pagination() {
    var client = LiveTarget.get().client();
    String agent = unique("agent");
    var events = new ArrayList<Event>();
    for (int i = 0; i < 16; i++) events.add(LiveTarget.event("call.started", unique("call"), agent, null));
    client.ingest().send(events);
    LiveTarget.eventually(Duration.ofSeconds(20), () -> {
      assertEquals(16, LiveTarget.callsOf(client, agent).size());
      return null;
    });
    var params = CallListParams.builder().agentId(agent).limit(7).build();
    var iterated = new ArrayList<String>();
    for (Call call : client.calls().list(params)) iterated.add(call.id());

    var paged = new ArrayList<String>();
    var sizes = new ArrayList<Integer>();
    var page = client.calls().list(params).firstPage();
    while (true) {
      sizes.add(page.items().size());
      page.items().forEach(call -> paged.add(call.id()));
      if (!page.hasNextPage()) break;
      page = page.nextPage();
    }
    assertEquals(List.of(7, 7, 2), sizes);
    assertEquals(iterated, paged);
    assertEquals(16, new HashSet<>(iterated).size());
    var onePage = client.calls().list(params.toBuilder().limit(200).build()).firstPage().items().stream().map(Call::id).toList();
    assertEquals(onePage, iterated);
  }
}
