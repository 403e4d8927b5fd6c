package io.corpora.loader.text;

import io.corpora.loader.common.Deadline;
import io.corpora.loader.common.FrontMatter;
import io.corpora.loader.common.LoadFailures;
import io.corpora.loader.common.LoaderLimits;
import io.corpora.spi.ReservedKeys;
import io.corpora.spi.loader.ContentFormat;
import io.corpora.spi.loader.DocumentLoadException;
import io.corpora.spi.loader.DocumentLoadException.Reason;
import io.corpora.spi.loader.DocumentLoader;
import io.corpora.spi.loader.LoadRequest;
import io.corpora.spi.loader.LoadedDocument;
import io.corpora.spi.loader.MarkdownLines;
import io.corpora.spi.loader.Section;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Markdown: front matter to metadata, the body kept verbatim as {@link ContentFormat#MARKDOWN} so the engine's
 * Markdown chunker can split it by heading. The title is the first level-1 heading (ATX {@code # Title} or
 * setext {@code Title} over {@code ===}) outside code fences, else a front-matter {@code title}. Headings and fences are
 * read as the engine's chunker reads them ({@link MarkdownLines}), in linear time whatever the line.
 */
final class MarkdownLoader implements DocumentLoader {

    private static final Pattern SETEXT_H1_UNDERLINE = Pattern.compile("^ {0,3}=+[ \\t]*$");

    private final LoaderLimits limits;

    MarkdownLoader(LoaderLimits limits) {
        this.limits = limits;
    }

    @Override
    public LoadedDocument load(LoadRequest upload) {
        LoaderLimits.Admitted admitted = limits.admit(upload);
        LoadRequest request = admitted.request();
        TextDecoder.DecodedText decoded = TextDecoder.decode(admitted);
        Deadline deadline = admitted.deadline();
        FrontMatter split = FrontMatter.split(decoded.text(), request.fileName());
        deadline.check("reading the front matter");
        if (split.body().isBlank()) {
            throw LoadFailures.noText(request.fileName(), "it has no Markdown body after its front matter");
        }
        String title = firstH1(split.body());
        if (title == null && split.metadata().get("title") instanceof String frontMatterTitle && !frontMatterTitle.isBlank()) {
            title = frontMatterTitle.strip();
        }
        // Reserved keys (_tenant, _partition, …) are the server's; a document naming them must not even seem to set them.
        Map<String, Object> metadata = new LinkedHashMap<>(split.metadata());
        metadata.keySet().removeIf(ReservedKeys::isReserved);
        metadata.putIfAbsent("charset", decoded.charset().name());
        try {
            return new LoadedDocument(ContentFormat.MARKDOWN, title, List.of(Section.of(split.body())), metadata);
        } catch (IllegalArgumentException e) {
            // Metadata limits (key count, value length, list size) apply to front matter too.
            throw new DocumentLoadException(Reason.MALFORMED,
                    "the front matter of '" + request.fileName() + "' cannot be stored as metadata: " + e.getMessage(), e);
        }
    }

    static String firstH1(String body) {
        String[] lines = body.split("\n", -1);
        String fence = null;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            String marker = MarkdownLines.fence(line);
            if (marker != null) {
                if (fence == null) {
                    fence = marker;
                } else if (fence.equals(marker)) {
                    fence = null;
                }
                continue;
            }
            if (fence != null) {
                continue;
            }
            MarkdownLines.Heading atx = MarkdownLines.heading(line);
            if (atx != null && atx.level() == 1 && !atx.text().isBlank()) {
                return atx.text().strip();
            }
            boolean paragraphStart = i == 0 || lines[i - 1].isBlank();
            if (paragraphStart && !line.isBlank() && i + 1 < lines.length && SETEXT_H1_UNDERLINE.matcher(lines[i + 1]).matches()) {
                return line.strip();
            }
        }
        return null;
    }
}
