package io.corpora.engine.retriever;

import io.corpora.spi.Chunk;
import io.corpora.spi.Namespace;
import io.corpora.spi.Passage;
import io.corpora.spi.ReservedKeys;
import io.corpora.spi.RetrieveOptions;
import io.corpora.spi.store.VectorStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Widens each hit to its neighbours: the chunks {@code index - radius … index + radius} of the same document
 * (and the same document version), read from the bound namespace with {@link VectorStore#documentChunks}.
 * Neighbours must match the request's filter too, so a window never reveals a chunk the filter excludes. Windows
 * of one document that overlap or touch are merged into the best-ranked hit's passage (deduplicated); the text
 * joins the chunks in order, dropping the overlap the chunker carried across each seam.
 */
public final class NeighborWindowExpander implements Retriever {

    static final String STAGE = "neighbors";

    private final Retriever base;
    private final VectorStore store;
    private final Namespace namespace;
    private final int radius;

    public NeighborWindowExpander(Retriever base, VectorStore store, Namespace namespace, int radius) {
        this.base = Objects.requireNonNull(base, "base");
        this.store = Objects.requireNonNull(store, "store");
        this.namespace = Objects.requireNonNull(namespace, "namespace");
        if (radius < 0 || radius > 10) {
            throw new IllegalArgumentException("neighbour radius must be 0..10 chunks, got " + radius);
        }
        this.radius = radius;
    }

    @Override
    public RetrievalResult retrieve(String query, RetrieveOptions options) {
        RetrievalDiagnostics.Builder diagnostics = RetrievalDiagnostics.builder();
        RetrievalResult hits = base.retrieve(query, options.withMaxChars(null));
        diagnostics.absorb(hits.diagnostics());
        long start = System.nanoTime();
        Map<String, List<Chunk>> chunksByDocument = new HashMap<>();
        List<Window> windows = new ArrayList<>();
        for (Passage hit : hits.passages()) {
            String documentId = Passages.documentId(hit);
            Integer index = Passages.chunkIndex(hit);
            if (documentId == null || index == null) {
                windows.add(new Window(hit, null, index == null ? 0 : index, index == null ? 0 : index, new TreeMap<>()));
                continue;
            }
            List<Chunk> documentChunks = chunksByDocument.computeIfAbsent(documentId, id -> store.documentChunks(namespace, id));
            Window window = new Window(hit, documentId, index - radius, index + radius, new TreeMap<>());
            Object version = hit.metadata().get(ReservedKeys.VERSION);
            for (Chunk c : documentChunks) {
                boolean sameVersion = Objects.equals(version, c.metadata().get(ReservedKeys.VERSION));
                if (c.index() >= window.from && c.index() <= window.to && sameVersion
                        && (c.index() == index || options.filter().matches(c.metadata()))) {
                    window.chunks.put(c.index(), c.text());
                }
            }
            window.chunks.putIfAbsent(index, hit.text());
            mergeInto(windows, window);
        }
        List<Passage> expanded = windows.stream().map(Window::toPassage).toList();
        diagnostics.leg(STAGE, expanded.size(), start);
        diagnostics.examined(expanded.size());
        return new RetrievalResult(ResultShaper.spendBudget(expanded, options.maxChars(), diagnostics), diagnostics.build());
    }

    /** Adds the window, or merges it (and anything it now bridges) into a better-ranked window of the same document. */
    private static void mergeInto(List<Window> windows, Window window) {
        Window target = null;
        for (Window w : windows) {
            if (w.documentId != null && w.documentId.equals(window.documentId) && w.touches(window)) {
                target = w;
                break;
            }
        }
        if (target == null) {
            windows.add(window);
            return;
        }
        target.absorb(window);
        for (int i = windows.size() - 1; i >= 0; i--) {
            Window other = windows.get(i);
            if (other != target && other.documentId != null && other.documentId.equals(target.documentId) && other.touches(target)) {
                target.absorb(other);
                windows.remove(i);
            }
        }
    }

    private static final class Window {
        private final Passage hit;
        private final String documentId;
        private int from;
        private int to;
        private final TreeMap<Integer, String> chunks;

        Window(Passage hit, String documentId, int from, int to, TreeMap<Integer, String> chunks) {
            this.hit = hit;
            this.documentId = documentId;
            this.from = from;
            this.to = to;
            this.chunks = chunks;
        }

        boolean touches(Window other) {
            return other.from <= to + 1 && other.to >= from - 1;
        }

        void absorb(Window other) {
            from = Math.min(from, other.from);
            to = Math.max(to, other.to);
            other.chunks.forEach(chunks::putIfAbsent);
        }

        Passage toPassage() {
            if (documentId == null) {
                return hit;
            }
            StringBuilder text = new StringBuilder();
            Integer previous = null;
            for (Map.Entry<Integer, String> e : chunks.entrySet()) {
                if (text.length() == 0) {
                    text.append(e.getValue());
                } else if (previous != null && e.getKey() == previous + 1) {
                    appendWithoutOverlap(text, e.getValue());
                } else {
                    text.append("\n…\n").append(e.getValue());
                }
                previous = e.getKey();
            }
            Map<String, Object> metadata = new LinkedHashMap<>(hit.metadata());
            metadata.put(PassageKeys.WINDOW, List.of(chunks.firstKey(), chunks.lastKey()));
            return new Passage(hit.id(), text.toString(), hit.score(), hit.source(), metadata);
        }
    }

    /** Shorter shared spans are coincidence (a repeated word), not the chunker's overlap. */
    private static final int MIN_OVERLAP = 20;

    /**
     * Appends the next chunk, skipping its longest prefix that already ends the text at a word boundary (the
     * chunker's overlap, which starts on a word); otherwise joins with a space.
     */
    static void appendWithoutOverlap(StringBuilder text, String next) {
        int longest = Math.min(Math.min(text.length(), next.length()), 4096);
        String tail = text.substring(text.length() - longest);
        for (int length = longest; length >= Math.min(MIN_OVERLAP, next.length()) && length > 0; length--) {
            int at = tail.length() - length;
            boolean wordStart = at == 0 ? text.length() == length || Character.isWhitespace(text.charAt(text.length() - length - 1))
                    : Character.isWhitespace(tail.charAt(at - 1));
            if (wordStart && tail.regionMatches(at, next, 0, length)) {
                text.append(next, length, next.length());
                return;
            }
        }
        text.append(Character.isWhitespace(text.charAt(text.length() - 1)) ? "" : " ").append(next);
    }
}
