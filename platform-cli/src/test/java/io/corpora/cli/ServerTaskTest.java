package io.corpora.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ServerTaskTest {

    @Test
    void aProblemReadsAsStatusTitleAndDetail() {
        assertEquals("409 Concurrent write: version 3 of document 'a' was superseded", ServerTask.problem(409,
                "{\"type\":\"https://corpora.dev/problems/concurrent-write\",\"title\":\"Concurrent write\",\"status\":409,"
                        + "\"detail\":\"version 3 of document 'a' was superseded\"}"));
    }

    @Test
    void aBodyThatIsNotAProblemIsShownAsItIs() {
        assertEquals("502 <html>Bad Gateway</html>", ServerTask.problem(502, "<html>Bad Gateway</html>"));
        assertEquals("400 {\"error\":\"x\"}", ServerTask.problem(400, "{\"error\":\"x\"}"), "JSON without title or detail: the body");
        assertEquals("503 Unavailable", ServerTask.problem(503, "{\"title\":\"Unavailable\",\"status\":503}"));
        assertEquals("500 ", ServerTask.problem(500, ""), "an empty body");
    }
}
