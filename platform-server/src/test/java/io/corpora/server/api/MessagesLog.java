package io.corpora.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Objects;
import java.util.stream.Stream;

/** The JSON messages.log of the build's Liberty servers, for the observability and fault tests. */
final class MessagesLog {

    private static final ObjectMapper JSON = new ObjectMapper();

    private MessagesLog() {}

    /** The records of the most recently written messages.log of the build's Liberty servers (JSON, one record a line). */
    static Stream<JsonNode> jsonRecords() throws IOException {
        Path servers = Path.of("target", "liberty", "wlp", "usr", "servers");
        Path log;
        try (Stream<Path> candidates = Files.list(servers)) {
            log = candidates.map(server -> server.resolve("logs").resolve("messages.log")).filter(Files::isRegularFile)
                    .max(Comparator.comparing(MessagesLog::modified)).orElseThrow(() -> new AssertionError("no messages.log under " + servers));
        }
        return Files.readAllLines(log).stream().filter(line -> line.startsWith("{")).map(line -> {
            try {
                return JSON.readTree(line);
            } catch (IOException e) {
                return null;
            }
        }).filter(Objects::nonNull);
    }

    private static java.nio.file.attribute.FileTime modified(Path file) {
        try {
            return Files.getLastModifiedTime(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
