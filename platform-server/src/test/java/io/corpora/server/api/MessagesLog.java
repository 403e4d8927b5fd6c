package io.corpora.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/** The JSON messages.log of the build's Liberty servers and their FFDC incident reports, for the observability and fault tests. */
public final class MessagesLog {

    private static final ObjectMapper JSON = new ObjectMapper();

    private MessagesLog() {}

    /**
     * The records of the Arquillian server's messages.log (JSON, one record a line): the server failsafe names, else the
     * most recently written one of the build's Liberty servers (other tests start servers of their own next to it).
     */
    public static Stream<JsonNode> jsonRecords() throws IOException {
        return Files.readAllLines(messagesLog()).stream().filter(line -> line.startsWith("{")).map(line -> {
            try {
                return JSON.readTree(line);
            } catch (IOException e) {
                return null;
            }
        }).filter(Objects::nonNull);
    }

    /**
     * The texts of the FFDC incident reports beside that messages.log ({@code logs/ffdc/ffdc_*.log}: Liberty writes one
     * for the first occurrence of each kind of incident, which a rolled-over messages.log would no longer show).
     */
    public static List<String> incidentReports() throws IOException {
        Path ffdc = messagesLog().resolveSibling("ffdc");
        if (!Files.isDirectory(ffdc)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(ffdc)) {
            List<String> reports = new ArrayList<>();
            for (Path file : files.filter(f -> f.getFileName().toString().startsWith("ffdc_")).toList()) {
                reports.add(new String(Files.readAllBytes(file), StandardCharsets.UTF_8)); // lenient: a report quotes whatever failed
            }
            return reports;
        }
    }

    private static Path messagesLog() throws IOException {
        Path servers = Path.of("target", "liberty", "wlp", "usr", "servers");
        String name = System.getProperty("corpora.liberty.server.name");
        Path log = name == null ? null : servers.resolve(name).resolve("logs").resolve("messages.log");
        return log != null && Files.isRegularFile(log) ? log : mostRecent(servers);
    }

    private static Path mostRecent(Path servers) throws IOException {
        Path log;
        try (Stream<Path> candidates = Files.list(servers)) {
            log = candidates.map(server -> server.resolve("logs").resolve("messages.log")).filter(Files::isRegularFile)
                    .max(Comparator.comparing(MessagesLog::modified)).orElseThrow(() -> new AssertionError("no messages.log under " + servers));
        }
        return log;
    }

    private static java.nio.file.attribute.FileTime modified(Path file) {
        try {
            return Files.getLastModifiedTime(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
