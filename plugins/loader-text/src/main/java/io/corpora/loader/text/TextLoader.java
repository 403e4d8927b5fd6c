package io.corpora.loader.text;

import io.corpora.loader.common.LoadFailures;
import io.corpora.loader.common.LoaderLimits;
import io.corpora.spi.loader.ContentFormat;
import io.corpora.spi.loader.DocumentLoader;
import io.corpora.spi.loader.LoadRequest;
import io.corpora.spi.loader.LoadedDocument;
import io.corpora.spi.loader.Section;
import java.util.List;
import java.util.Map;

/** Plain text as one prose section; the charset that decoded it is recorded as {@code charset} metadata. */
final class TextLoader implements DocumentLoader {

    private final LoaderLimits limits;

    TextLoader(LoaderLimits limits) {
        this.limits = limits;
    }

    @Override
    public LoadedDocument load(LoadRequest upload) {
        LoaderLimits.Admitted admitted = limits.admit(upload);
        LoadRequest request = admitted.request();
        TextDecoder.DecodedText decoded = TextDecoder.decode(admitted);
        if (decoded.text().isBlank()) {
            throw LoadFailures.noText(request.fileName(), "the file is empty or only whitespace");
        }
        return new LoadedDocument(ContentFormat.PROSE, null, List.of(Section.of(decoded.text())),
                Map.of("charset", decoded.charset().name()));
    }
}
