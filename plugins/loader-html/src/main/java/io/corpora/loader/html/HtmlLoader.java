package io.corpora.loader.html;

import io.corpora.loader.common.Deadline;
import io.corpora.loader.common.LoadFailures;
import io.corpora.loader.common.LoaderLimits;
import io.corpora.spi.loader.ContentFormat;
import io.corpora.spi.loader.DocumentLoadException;
import io.corpora.spi.loader.DocumentLoadException.Reason;
import io.corpora.spi.loader.DocumentLoader;
import io.corpora.spi.loader.LoadRequest;
import io.corpora.spi.loader.LoadedDocument;
import io.corpora.spi.loader.Section;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.UnsupportedCharsetException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.parser.Parser;

/**
 * Loads an HTML page as Markdown: its main content ({@link MainContent}) rendered by {@link MarkdownWriter}, the
 * title from {@code <title>} (else the first {@code <h1>}). Parsing is offline by construction: jsoup parses the
 * bytes it is given and this loader never asks it to fetch; the base URI is empty, so no link is even resolved.
 * The charset is the byte-order mark, else the declared one, else a {@code <meta charset>}, else UTF-8 (jsoup's
 * detection).
 */
final class HtmlLoader implements DocumentLoader {

    private static final int MAX_DESCRIPTION_CHARS = 1000;

    private final LoaderLimits limits;

    HtmlLoader(LoaderLimits limits) {
        this.limits = limits;
    }

    @Override
    public LoadedDocument load(LoadRequest upload) {
        LoaderLimits.Admitted admitted = limits.admit(upload);
        LoadRequest request = admitted.request();
        Deadline deadline = admitted.deadline();
        Document document = parse(request, deadline);
        String title = title(document);
        String language = document.select("html").attr("lang").strip();
        String description = document.select("meta[name=description]").attr("content").strip();
        Element content = MainContent.of(document);
        String markdown = MarkdownWriter.render(content, deadline);
        if (markdown.isBlank()) {
            throw LoadFailures.noText(request.fileName(), "its main content has no text once scripts, navigation and forms are removed");
        }
        if (title != null && content.selectFirst("h1") == null) {
            // Give the Markdown chunker a top-level heading, so every chunk's heading path starts with the page title.
            markdown = "# " + title + "\n\n" + markdown;
        }
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("charset", document.charset().name());
        if (!language.isEmpty() && language.length() <= 35) {
            metadata.put("language", language);
        }
        if (!description.isEmpty() && description.length() <= MAX_DESCRIPTION_CHARS) {
            metadata.put("description", description);
        }
        return new LoadedDocument(ContentFormat.MARKDOWN, title, List.of(Section.of(markdown)), metadata);
    }

    private static Document parse(LoadRequest request, Deadline deadline) {
        String charset = request.charset() == null || request.charset().isBlank() ? null : request.charset().trim();
        try {
            return Jsoup.parse(new DeadlineInputStream(new ByteArrayInputStream(request.bytes()), deadline), charset, "",
                    Parser.htmlParser());
        } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
            throw new DocumentLoadException(Reason.UNSUPPORTED, "'" + request.fileName() + "' declares charset '" + charset
                    + "', which this server does not know; use UTF-8", e);
        } catch (IOException | UncheckedIOException e) {
            throw new DocumentLoadException(Reason.MALFORMED, "'" + request.fileName() + "' could not be read as HTML: "
                    + e.getMessage(), e);
        }
    }

    private static String title(Document document) {
        String title = document.title().strip();
        if (title.isEmpty()) {
            Element h1 = document.selectFirst("h1");
            title = h1 == null ? "" : h1.text().strip();
        }
        return title.isEmpty() ? null : title;
    }
}
