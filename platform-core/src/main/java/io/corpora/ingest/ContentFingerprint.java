package io.corpora.ingest;

import io.corpora.engine.chunk.ChunkingOptions;
import io.corpora.spi.loader.LoadedDocument;
import io.corpora.spi.loader.Section;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.text.Normalizer;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

/**
 * The dedupe key of a document version: SHA-256 over its normalised text (NFC, LF line ends, no trailing
 * whitespace), its metadata, the chunking options and the embedder fingerprint. Equal keys mean re-ingesting would
 * produce exactly the stored chunks and vectors, so the ingest is skipped without calling the embedder.
 */
public final class ContentFingerprint {

    private ContentFingerprint() {}

    public static String of(LoadedDocument document, String source, ChunkingOptions chunking, String embedderId) {
        MessageDigest digest = sha256();
        update(digest, "format", document.format().name());
        update(digest, "source", source);
        update(digest, "metadata", canonical(document.metadata()));
        for (Section section : document.sections()) {
            update(digest, "section", normalise(section.text()));
            update(digest, "section-metadata", canonical(section.metadata()));
        }
        update(digest, "chunking", chunking.chunkSize() + "/" + chunking.overlap() + "/" + chunking.separator() + "/" + chunking.maxTokens());
        update(digest, "embedder", embedderId);
        return HexFormat.of().formatHex(digest.digest());
    }

    static String normalise(String text) {
        String nfc = Normalizer.normalize(text, Normalizer.Form.NFC).replace("\r\n", "\n").replace('\r', '\n');
        return withoutBlanksBeforeLineFeeds(nfc).strip();
    }

    /**
     * Drops every run of spaces and tabs that ends a line, in one pass (the pattern {@code [ \t]+\n} costs quadratic
     * time on a long run of spaces that no line feed follows: every start in the run is tried to its end).
     */
    private static String withoutBlanksBeforeLineFeeds(String text) {
        StringBuilder out = new StringBuilder(text.length());
        int blanksFrom = -1;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == ' ' || c == '\t') {
                if (blanksFrom < 0) {
                    blanksFrom = i;
                }
                continue;
            }
            if (blanksFrom >= 0 && c != '\n') {
                out.append(text, blanksFrom, i);
            }
            blanksFrom = -1;
            out.append(c);
        }
        if (blanksFrom >= 0) {
            out.append(text, blanksFrom, text.length());
        }
        return out.toString();
    }

    private static String canonical(Map<String, Object> metadata) {
        return new TreeMap<>(metadata).toString();
    }

    private static void update(MessageDigest digest, String field, String value) {
        byte[] bytes = String.valueOf(value).getBytes(StandardCharsets.UTF_8);
        digest.update(field.getBytes(StandardCharsets.UTF_8));
        digest.update((byte) 0);
        digest.update(Integer.toString(bytes.length).getBytes(StandardCharsets.UTF_8));
        digest.update((byte) 0);
        digest.update(bytes);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
