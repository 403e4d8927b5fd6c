package io.corpora.engine.chunk;

import java.util.ArrayList;
import java.util.List;

/**
 * Record mode for prose: cuts only at a separator (e.g. {@code "\n"} for JSONL, {@code "---"}), drops blank records,
 * and packs whole records into a chunk while they fit, rejoined with the separator. A record that alone exceeds
 * the window is split by the prose rule, and its pieces are flagged {@link Piece#oversizedRecord()}.
 */
final class RecordPacker {

    /** One chunk's text; {@code oversizedRecord} when it is part of a record too large for one chunk. */
    record Piece(String text, boolean oversizedRecord) {}

    private RecordPacker() {}

    static List<Piece> pack(String text, ChunkingOptions options, DocumentDeadline deadline) {
        String separator = options.separator();
        List<Piece> pieces = new ArrayList<>();
        List<String> batch = new ArrayList<>();
        for (String record : splitLiteral(text, separator)) {
            deadline.check("packing records");
            String trimmed = record.strip();
            if (trimmed.isEmpty()) {
                continue;
            }
            if (!options.fits(trimmed)) {
                flush(batch, separator, pieces);
                for (WindowSplitter.Span span : WindowSplitter.split(trimmed, options, deadline)) {
                    pieces.add(new Piece(span.of(trimmed), true));
                }
                continue;
            }
            if (!batch.isEmpty() && !options.fits(join(batch, separator) + separator + trimmed)) {
                flush(batch, separator, pieces);
            }
            batch.add(trimmed);
        }
        flush(batch, separator, pieces);
        return pieces;
    }

    private static void flush(List<String> batch, String separator, List<Piece> pieces) {
        if (!batch.isEmpty()) {
            pieces.add(new Piece(join(batch, separator), false));
            batch.clear();
        }
    }

    private static String join(List<String> records, String separator) {
        return String.join(separator, records);
    }

    /** Splits on the literal separator (no regular expression), keeping empty parts for the caller to drop. */
    static List<String> splitLiteral(String text, String separator) {
        List<String> parts = new ArrayList<>();
        int from = 0;
        int at;
        while ((at = text.indexOf(separator, from)) >= 0) {
            parts.add(text.substring(from, at));
            from = at + separator.length();
        }
        parts.add(text.substring(from));
        return parts;
    }
}
