package io.corpora.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.corpora.spi.ClassifiedFailure;
import io.corpora.spi.FailureKind;
import io.corpora.spi.ReservedKeys;
import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.loader.DocumentLoadException;
import io.corpora.spi.loader.DocumentLoader;
import io.corpora.spi.loader.DocumentLoaderProvider;
import io.corpora.spi.loader.LoadRequest;
import io.corpora.spi.loader.LoadedDocument;
import io.corpora.spi.loader.Section;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * The behaviour every {@link DocumentLoader} must show, as a reusable JUnit 5 suite: a loader plugin's test extends
 * this class, names its provider and supplies sample documents. Loaders are created as the server creates them: the
 * provider found by name through {@link java.util.ServiceLoader}, the configuration validated against its options.
 *
 * <p>What it holds a loader to: it is discoverable and declares lower-case media types without parameters, and a
 * well-formed document of each loads to text, the same text every time; malformed input — the author's sample, and
 * empty, truncated and random bytes — fails only with a {@link DocumentLoadException} (a caller error), never another
 * exception; the declared byte limit ({@value #MAX_BYTES}), time limit ({@value #TIMEOUT}) and any count limits (pages,
 * records) are honoured with {@link DocumentLoadException.Reason#TOO_LARGE} / {@link DocumentLoadException.Reason#TIMEOUT};
 * no {@link ReservedKeys reserved key} is ever emitted, whatever the document claims.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
public abstract class DocumentLoaderContract {

    /** The option every bundled loader declares for its byte limit. */
    public static final String MAX_BYTES = "maxBytes";
    /** The option every bundled loader declares for its time limit. */
    public static final String TIMEOUT = "timeout";

    /** One document: its media type and bytes. */
    public record Sample(String mediaType, byte[] bytes) {

        /** A text document, encoded as UTF-8. */
        public static Sample utf8(String mediaType, String text) {
            return new Sample(mediaType, text.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** A limit beyond bytes and time (pages, records): the option, a value, and a document over it. */
    public record CountLimit(String option, String value, Sample overLimit) {}

    /** The provider's {@link DocumentLoaderProvider#name()}. */
    protected abstract String providerName();

    /** A well-formed document with text, of {@code mediaType} (one of the provider's declared types). */
    protected abstract byte[] wellFormed(String mediaType);

    /** A document that is malformed, encrypted or otherwise unreadable, of one of the declared types. */
    protected abstract Sample malformed();

    /** The configuration the suite's loaders start from (limits the suite tests are overridden on top). */
    protected Map<String, String> config() {
        return Map.of();
    }

    /** A document that needs more than a millisecond to load; null when none can (the time-limit test then skips). */
    protected Sample slowDocument() {
        return null;
    }

    /** Count limits the loader declares, each with a document over it. */
    protected List<CountLimit> countLimits() {
        return List.of();
    }

    /** Documents whose content claims reserved metadata keys (e.g. front matter naming {@code _tenant}). */
    protected List<Sample> documentsClaimingReservedKeys() {
        return List.of();
    }

    protected final DocumentLoaderProvider provider() {
        return Loaders.provider(providerName());
    }

    /** A loader with {@link #config()} and {@code overrides}. */
    protected final DocumentLoader loader(Map<String, String> overrides) {
        Map<String, String> options = new HashMap<>(config());
        options.putAll(overrides);
        return Loaders.create(providerName(), options);
    }

    protected static LoadRequest request(Sample sample) {
        return new LoadRequest(sample.bytes(), sample.mediaType(), null, "contract-sample");
    }

    @Test
    void theProviderIsDiscoverableAndDeclaresLowerCaseMediaTypes() {
        DocumentLoaderProvider provider = provider();
        assertFalse(provider.mediaTypes().isEmpty(), "a loader declares the media types it reads");
        for (String type : provider.mediaTypes()) {
            assertEquals(type.toLowerCase(Locale.ROOT).strip(), type, "media types are lower-case: " + type);
            assertTrue(type.matches("[a-z0-9.+-]+/[a-z0-9.+-]+"), "a type/subtype without parameters: " + type);
        }
        for (String extension : provider.fileExtensions()) {
            assertTrue(extension.matches("[a-z0-9]+"), "file extensions are lower-case, without a dot: " + extension);
        }
    }

    @Test
    void everyDeclaredMediaTypeLoadsAWellFormedDocumentToText() {
        DocumentLoader loader = loader(Map.of());
        for (String type : provider().mediaTypes()) {
            LoadedDocument document = loader.load(new LoadRequest(wellFormed(type), type, null, "sample"));
            assertNotNull(document.format(), type);
            assertFalse(document.sections().isEmpty(), type + ": a document with text has sections");
            assertTrue(document.sections().stream().map(Section::text).anyMatch(t -> !t.isBlank()), type + ": no text extracted");
            requireNoReservedKeys(type, document);
        }
    }

    @Test
    void loadingIsDeterministic() {
        DocumentLoader loader = loader(Map.of());
        for (String type : provider().mediaTypes()) {
            LoadRequest request = new LoadRequest(wellFormed(type), type, null, "sample");
            assertEquals(loader.load(request), loader.load(request), type + ": the same bytes load to the same document");
            assertEquals(loader.load(request), loader(Map.of()).load(request), type + ": another instance loads the same");
        }
    }

    @Test
    void malformedInputIsATypedError() {
        Sample malformed = malformed();
        DocumentLoadException e = assertThrows(DocumentLoadException.class, () -> loader(Map.of()).load(request(malformed)),
                "a malformed " + malformed.mediaType() + " must fail with DocumentLoadException");
        assertNotNull(e.reason());
        assertTrue(e.getMessage() != null && !e.getMessage().isBlank(), "the message says why");
        assertEquals(FailureKind.CALLER_ERROR, ClassifiedFailure.of(e).orElseThrow(), "the caller's document, not the loader's health");
    }

    @Test
    void emptyTruncatedAndRandomBytesFailOnlyWithATypedError() {
        DocumentLoader loader = loader(Map.of());
        Random random = new Random(13);
        for (String type : provider().mediaTypes()) {
            byte[] whole = wellFormed(type);
            byte[] noise = new byte[4096];
            random.nextBytes(noise);
            List<byte[]> inputs = new ArrayList<>(List.of(new byte[0], Arrays.copyOf(whole, 1), Arrays.copyOf(whole, whole.length / 2),
                    Arrays.copyOf(whole, Math.max(0, whole.length - 3)), noise));
            for (int i = 0; i < inputs.size(); i++) {
                LoadRequest request = new LoadRequest(inputs.get(i), type, null, "bad-" + i);
                try {
                    requireNoReservedKeys(type + " input " + i, loader.load(request));
                } catch (DocumentLoadException expected) {
                    assertNotNull(expected.reason());
                } catch (RuntimeException | StackOverflowError other) {
                    throw new AssertionError(type + " input " + i + " (" + inputs.get(i).length
                            + " bytes) must load or fail with DocumentLoadException, threw " + other, other);
                }
            }
        }
    }

    @Test
    void aDocumentOverTheByteLimitFailsTooLarge() {
        requireDeclared(MAX_BYTES);
        String type = provider().mediaTypes().iterator().next();
        byte[] document = wellFormed(type);
        LoadRequest request = new LoadRequest(document, type, null, "sample");
        DocumentLoadException e = assertThrows(DocumentLoadException.class,
                () -> loader(Map.of(MAX_BYTES, Long.toString(document.length - 1))).load(request));
        assertEquals(DocumentLoadException.Reason.TOO_LARGE, e.reason(), e.getMessage());
        assertFalse(loader(Map.of(MAX_BYTES, Long.toString(document.length))).load(request).sections().isEmpty(),
                "a document of exactly the limit loads");
    }

    @Test
    void aDocumentOverTheTimeLimitFailsWithTimeout() {
        requireDeclared(TIMEOUT);
        Sample slow = slowDocument();
        assumeTrue(slow != null, "no sample document is slow enough to cross a 1 ms limit");
        long start = System.nanoTime();
        DocumentLoadException e = assertThrows(DocumentLoadException.class, () -> loader(Map.of(TIMEOUT, "1ms")).load(request(slow)));
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertEquals(DocumentLoadException.Reason.TIMEOUT, e.reason(), e.getMessage());
        assertTrue(millis < 10_000, "gave up only after " + millis + " ms");
    }

    @Test
    void countLimitsAreHonoured() {
        List<CountLimit> limits = countLimits();
        assumeTrue(!limits.isEmpty(), "the loader declares no count limit beyond bytes and time");
        for (CountLimit limit : limits) {
            requireDeclared(limit.option());
            DocumentLoadException e = assertThrows(DocumentLoadException.class,
                    () -> loader(Map.of(limit.option(), limit.value())).load(request(limit.overLimit())),
                    "over " + limit.option() + "=" + limit.value());
            assertEquals(DocumentLoadException.Reason.TOO_LARGE, e.reason(), e.getMessage());
        }
    }

    @Test
    void noReservedKeyIsEverEmitted() {
        DocumentLoader loader = loader(Map.of());
        for (Sample sample : documentsClaimingReservedKeys()) {
            try {
                requireNoReservedKeys(sample.mediaType() + " claiming reserved keys", loader.load(request(sample)));
            } catch (DocumentLoadException refused) {
                assertNotNull(refused.reason()); // refusing such a document is as good as dropping the keys
            }
        }
        for (String type : provider().mediaTypes()) {
            requireNoReservedKeys(type, loader.load(new LoadRequest(wellFormed(type), type, null, "sample")));
        }
    }

    private void requireDeclared(String option) {
        assertTrue(provider().configOptions().stream().map(ConfigOption::name).anyMatch(option::equals),
                "the loader must declare its '" + option + "' limit");
    }

    private static void requireNoReservedKeys(String what, LoadedDocument document) {
        for (String key : document.metadata().keySet()) {
            assertFalse(ReservedKeys.isReserved(key), what + ": a loader must never emit the reserved key '" + key + "'");
        }
    }
}
