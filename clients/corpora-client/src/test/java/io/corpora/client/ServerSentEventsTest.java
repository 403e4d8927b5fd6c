package io.corpora.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ServerSentEventsTest {

    @Test
    void framesAreSplitOnBlankLinesWithNamesDataAndComments() throws Exception {
        String body = ": a comment the server may send to keep the connection open\n"
                + "event: retrieval\ndata: {\"context\": []}\n\n"
                + "event: delta\ndata:{\"text\": \"no space after the colon\"}\n\n"
                + "data: first line\ndata: second line\n\n"
                + "event: lonely\n\n"                                   // no data: not dispatched
                + "event: done\r\ndata: {\"answer\": \"crlf\"}\r\n\r\n"
                + "event: delta\ndata: {\"text\": \"cut off\"}\n";      // no closing blank line: the stream broke

        List<ServerSentEvents.Event> events = new ArrayList<>();
        try (ServerSentEvents reader = new ServerSentEvents(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)))) {
            for (ServerSentEvents.Event e; (e = reader.next()) != null; ) {
                events.add(e);
            }
            assertNull(reader.next());
        }

        assertEquals(List.of(new ServerSentEvents.Event("retrieval", "{\"context\": []}"),
                new ServerSentEvents.Event("delta", "{\"text\": \"no space after the colon\"}"),
                new ServerSentEvents.Event("message", "first line\nsecond line"),
                new ServerSentEvents.Event("done", "{\"answer\": \"crlf\"}")), events);
    }
}
