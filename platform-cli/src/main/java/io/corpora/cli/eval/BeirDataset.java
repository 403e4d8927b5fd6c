package io.corpora.cli.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A BEIR-format dataset: {@code corpus.jsonl} ({@code _id, title, text}), queries ({@code _id, text}) and qrels
 * (TSV with a header line: query id, corpus id, relevance). A split's queries and qrels are read from
 * {@code DIR/<split>/} when that folder exists (e.g. {@code train/}), else from BEIR's own layout
 * ({@code DIR/queries.jsonl} + {@code DIR/qrels/<split>.tsv}), else, for {@code test}, from {@code DIR/qrels.tsv}.
 */
public final class BeirDataset {

    /** One corpus document. */
    public record CorpusDocument(String id, String title, String text) {}

    /** One query. */
    public record Query(String id, String text) {}

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path directory;
    private final String split;
    private final Path queriesFile;
    private final Path qrelsFile;

    private BeirDataset(Path directory, String split, Path queriesFile, Path qrelsFile) {
        this.directory = directory;
        this.split = split;
        this.queriesFile = queriesFile;
        this.qrelsFile = qrelsFile;
    }

    public static BeirDataset open(Path directory, String split) {
        if (!Files.isDirectory(directory)) {
            throw new IllegalArgumentException("dataset directory " + directory + " does not exist");
        }
        requireFile(directory.resolve("corpus.jsonl"), "the corpus");
        Path splitDir = directory.resolve(split);
        Path queries;
        Path qrels;
        if (Files.isDirectory(splitDir) && Files.isRegularFile(splitDir.resolve("qrels.tsv"))) {
            queries = Files.isRegularFile(splitDir.resolve("queries.jsonl")) ? splitDir.resolve("queries.jsonl") : directory.resolve("queries.jsonl");
            qrels = splitDir.resolve("qrels.tsv");
        } else if (Files.isRegularFile(directory.resolve("qrels").resolve(split + ".tsv"))) {
            queries = directory.resolve("queries.jsonl");
            qrels = directory.resolve("qrels").resolve(split + ".tsv");
        } else if (split.equals("test")) {
            queries = directory.resolve("queries.jsonl");
            qrels = directory.resolve("qrels.tsv");
        } else {
            throw new IllegalArgumentException("dataset " + directory + " has no '" + split + "' split: expected " + splitDir.resolve("qrels.tsv")
                    + " or " + directory.resolve("qrels").resolve(split + ".tsv"));
        }
        requireFile(queries, "the queries");
        requireFile(qrels, "the qrels");
        return new BeirDataset(directory, split, queries, qrels);
    }

    /**
     * Only a judged set, BEIR queries ({@code _id, text} lines) and qrels (TSV with a header line), for a corpus that
     * lives elsewhere (a tenant's, on a server): {@link #forEachDocument} is not available.
     */
    public static BeirDataset judged(Path queriesFile, Path qrelsFile) {
        requireFile(queriesFile, "the queries");
        requireFile(qrelsFile, "the qrels");
        return new BeirDataset(null, "judged", queriesFile, qrelsFile);
    }

    private static void requireFile(Path file, String what) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(what + " file " + file + " does not exist");
        }
    }

    public Path directory() {
        return directory;
    }

    public String split() {
        return split;
    }

    /** Streams the corpus in file order. */
    public void forEachDocument(Consumer<CorpusDocument> consumer) {
        if (directory == null) {
            throw new IllegalStateException("a judged set without a corpus has no documents");
        }
        readJsonLines(directory.resolve("corpus.jsonl"), node -> consumer.accept(new CorpusDocument(
                requireText(node, "_id", "corpus.jsonl"), node.path("title").asText(""), node.path("text").asText(""))));
    }

    /** The split's queries, in file order. */
    public List<Query> queries() {
        List<Query> queries = new ArrayList<>();
        readJsonLines(queriesFile, node -> queries.add(new Query(requireText(node, "_id", queriesFile.toString()), node.path("text").asText(""))));
        return queries;
    }

    /** Query id → (document id → relevance), in file order; the header line is skipped. */
    public Map<String, Map<String, Integer>> qrels() {
        Map<String, Map<String, Integer>> qrels = new LinkedHashMap<>();
        try (BufferedReader reader = Files.newBufferedReader(qrelsFile, StandardCharsets.UTF_8)) {
            String line = reader.readLine(); // header
            int number = 1;
            while ((line = reader.readLine()) != null) {
                number++;
                if (line.isBlank()) {
                    continue;
                }
                String[] fields = line.split("\t");
                if (fields.length < 3) {
                    throw new IllegalArgumentException(qrelsFile + " line " + number + ": expected 'query-id<TAB>corpus-id<TAB>score'");
                }
                try {
                    qrels.computeIfAbsent(fields[0], q -> new LinkedHashMap<>()).put(fields[1], Integer.parseInt(fields[2].trim()));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(qrelsFile + " line " + number + ": score '" + fields[2] + "' is not an integer");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + qrelsFile, e);
        }
        return qrels;
    }

    private static String requireText(JsonNode node, String field, String file) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull() || value.asText().isBlank()) {
            throw new IllegalArgumentException(file + ": a line has no '" + field + "'");
        }
        return value.asText();
    }

    private static void readJsonLines(Path file, Consumer<JsonNode> consumer) {
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int number = 0;
            while ((line = reader.readLine()) != null) {
                number++;
                if (line.isBlank()) {
                    continue;
                }
                JsonNode node;
                try {
                    node = JSON.readTree(line);
                } catch (IOException e) {
                    throw new IllegalArgumentException(file + " line " + number + " is not JSON: " + e.getMessage());
                }
                consumer.accept(node);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}
