package io.corpora.cli.ingest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;

/**
 * What a previous run of {@code corpora ingest} already stored, so an interrupted run resumes where it stopped:
 * one line per stored file, {@code <sha256>\t<relative path>}, appended as each file is confirmed by its job.
 */
final class IngestState {

    private final Path file;
    private final Map<String, String> storedHashes = new HashMap<>();

    IngestState(Path file) {
        this.file = file;
        if (Files.exists(file)) {
            try {
                for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                    int tab = line.indexOf('\t');
                    if (tab > 0) {
                        storedHashes.put(line.substring(tab + 1), line.substring(0, tab));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read resume state " + file, e);
            }
        }
    }

    boolean alreadyStored(String relativePath, String sha256) {
        return sha256.equals(storedHashes.get(relativePath));
    }

    void markStored(String relativePath, String sha256) {
        storedHashes.put(relativePath, sha256);
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, sha256 + "\t" + relativePath + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write resume state " + file, e);
        }
    }

    Path file() {
        return file;
    }
}
