package io.corpora.engine.chunk;

import io.corpora.loader.common.FrontMatter;
import io.corpora.spi.Chunk;
import io.corpora.spi.loader.LoadedDocument;
import io.corpora.spi.loader.MarkdownLines;
import io.corpora.spi.loader.Section;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Markdown: split by ATX heading ({@code #} … {@code ######}), each chunk carrying its heading path, outermost
 * first (e.g. {@code ["Expense Policy", "Lodging"]}); a long section is cut further by the prose rule. YAML
 * front matter at the top of the first section becomes document metadata. Headings inside fenced code blocks
 * are text. The heading line itself is not repeated in the chunk text: it is in the heading path, which the
 * {@code HeadingContextualizer} puts into the index text. A heading is kept to {@value ChunkFactory#MAX_LABEL_CHARS}
 * characters there, as every chunk under it carries it.
 *
 * <p>Left out: setext headings (underlined with {@code ===}/{@code ---}), which are read as prose.
 */
public final class MarkdownChunker implements Chunker {

    private final ChunkingOptions options;
    private final DocumentDeadline deadline;

    public MarkdownChunker(ChunkingOptions options) {
        this(options, DocumentDeadline.NONE);
    }

    /** A chunker that checks the document's deadline as it goes ({@link DocumentDeadline.Exceeded} once it passes). */
    public MarkdownChunker(ChunkingOptions options, DocumentDeadline deadline) {
        this.options = Objects.requireNonNull(options, "options");
        this.deadline = Objects.requireNonNull(deadline, "deadline");
    }

    @Override
    public List<Chunk> chunk(String documentId, LoadedDocument document) {
        List<Section> sections = document.sections();
        Map<String, Object> metadata = new LinkedHashMap<>();
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < sections.size(); i++) {
            String text = sections.get(i).text();
            if (i == 0) {
                deadline.check("reading the front matter");
                FrontMatter frontMatter = FrontMatter.split(text, documentId); // bounded: at most MAX_CHARS reach the parser
                metadata.putAll(frontMatter.metadata());
                text = frontMatter.body();
            }
            texts.add(text);
        }
        metadata.putAll(document.metadata()); // the loader's metadata wins over front matter it may have read too
        LoadedDocument withFrontMatter = new LoadedDocument(document.format(), document.title(), sections, metadata);
        ChunkFactory factory = new ChunkFactory(documentId, withFrontMatter, deadline);
        for (int i = 0; i < sections.size(); i++) {
            splitByHeading(texts.get(i), sections.get(i).metadata(), factory);
        }
        return factory.chunks();
    }

    private void splitByHeading(String text, Map<String, Object> sectionMetadata, ChunkFactory factory) {
        List<String> path = new ArrayList<>();
        List<Integer> levels = new ArrayList<>();
        StringBuilder body = new StringBuilder();
        String fence = null;
        for (String line : text.split("\r?\n", -1)) {
            deadline.check("splitting Markdown by heading");
            String marker = MarkdownLines.fence(line);
            if (marker != null) {
                fence = fence == null ? marker : (fence.equals(marker) ? null : fence);
            }
            MarkdownLines.Heading heading = fence == null ? MarkdownLines.heading(line) : null;
            if (heading != null) {
                factory.addSplitting(body.toString(), path, sectionMetadata, options, false);
                body.setLength(0);
                while (!levels.isEmpty() && levels.get(levels.size() - 1) >= heading.level()) {
                    levels.remove(levels.size() - 1);
                    path.remove(path.size() - 1);
                }
                levels.add(heading.level());
                path.add(ChunkFactory.label(heading.text()));
                continue;
            }
            body.append(line).append('\n');
        }
        factory.addSplitting(body.toString(), path, sectionMetadata, options, false);
    }
}
