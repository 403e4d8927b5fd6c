package io.corpora.spi;

/**
 * The version of this plugin SPI.
 *
 * <p>Every plugin jar carries the SPI version it was compiled against in its manifest
 * ({@value #MANIFEST_ATTRIBUTE}). The server refuses a plugin whose major version differs from
 * {@link #MAJOR}, or whose minor version is newer than {@link #MINOR} (it may call methods this
 * server does not have). Minor versions only ever add: default methods, types, and record components whose older constructors stay.
 * 1.1 added {@code ConfigOption} minimum/maximum; 1.2 added {@code VectorStoreProvider.locationOptions},
 * {@code VectorStore.deleteTenant} and the generation SPI ({@code io.corpora.spi.generate}: {@code Generator},
 * {@code GeneratorProvider} and their value types); 1.3 added {@code Embedder.maxQueryTokens}, the failure contract ({@code PluginException},
 * {@code FailureKind}, {@code ClassifiedFailure}), {@code ConfigOption.aliases} (older spellings of a renamed option) and
 * {@code VectorStore.releaseTenant}, {@code offloadTenant} and {@code restoreTenant} (tenant working sets, OFFLOADED);
 * 1.4 added read-your-writes ({@code VectorStore.consistencyToken} and the {@code consistencyToken} of
 * {@code SearchRequest} and {@code RetrieveOptions}, whose older constructors stay) and {@code VectorStore.storedVectors}
 * (store relocation without re-embedding); 1.5 added {@code PluginProvider.validate} (a configuration's mistakes found where
 * a definition enters, not when the plugin is created).
 */
public final class SpiVersion {

    public static final int MAJOR = 1;
    public static final int MINOR = 5;
    public static final String CURRENT = MAJOR + "." + MINOR;
    public static final String MANIFEST_ATTRIBUTE = "Corpora-SPI-Version";

    private SpiVersion() {}

    /** Whether a plugin built against {@code pluginVersion} ("major.minor") runs on this SPI. */
    public static boolean isCompatible(String pluginVersion) {
        int[] parsed = parse(pluginVersion);
        return parsed[0] == MAJOR && parsed[1] <= MINOR;
    }

    /** Parses "major.minor"; anything else is an {@link IllegalArgumentException} naming the input. */
    public static int[] parse(String version) {
        if (version == null || !version.trim().matches("\\d{1,4}\\.\\d{1,4}")) {
            throw new IllegalArgumentException("SPI version must look like 'major.minor', got: " + version);
        }
        String[] parts = version.trim().split("\\.");
        return new int[] {Integer.parseInt(parts[0]), Integer.parseInt(parts[1])};
    }
}
