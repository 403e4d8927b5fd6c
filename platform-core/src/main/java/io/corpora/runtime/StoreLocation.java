package io.corpora.runtime;

import io.corpora.controlplane.PluginChoice;
import io.corpora.plugin.loader.PluginRegistry;
import io.corpora.spi.store.VectorStoreProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.logging.Logger;

/**
 * Where a tenant's chunks live: the store provider and the values of its {@link VectorStoreProvider#locationOptions()
 * location options} as written in the tenant's definition (secret references unresolved). Two store choices with equal
 * locations reach the same data whatever their other options; the data directory a store instance gets is named after
 * its location alone.
 */
public record StoreLocation(String provider, SortedMap<String, String> options) {

    private static final Logger LOG = Logger.getLogger(StoreLocation.class.getName());

    public StoreLocation {
        options = new TreeMap<>(options);
    }

    public static StoreLocation of(PluginRegistry plugins, PluginChoice store) {
        Set<String> location = plugins.provider(VectorStoreProvider.class, store.provider()).locationOptions();
        SortedMap<String, String> values = new TreeMap<>();
        store.config().forEach((name, value) -> {
            if (location.contains(name)) {
                values.put(name, value);
            }
        });
        return new StoreLocation(store.provider(), values);
    }

    /**
     * Why a tenant holding {@code documents} registry entries may not move from this location to {@code next}, or empty
     * when it may (same location, or nothing stored). Names the changed options, never their values (a JDBC URL may hold
     * credentials).
     */
    public java.util.Optional<String> refusalToMove(String tenantId, StoreLocation next, long documents) {
        if (equals(next) || documents == 0) {
            return java.util.Optional.empty();
        }
        String what;
        if (!provider.equals(next.provider)) {
            what = "its store provider from " + provider + " to " + next.provider;
        } else {
            java.util.Set<String> changed = new java.util.TreeSet<>(options.keySet());
            changed.addAll(next.options.keySet());
            changed.removeIf(name -> java.util.Objects.equals(options.get(name), next.options.get(name)));
            what = "the " + provider + " store's location option(s) " + changed;
        }
        return java.util.Optional.of("tenant '" + tenantId + "' holds " + documents + " document(s); changing " + what
                + " would point it at a store location that does not hold them, while its registry still lists them. "
                + "Moving a tenant's data is a relocation, not a configuration change: keep the location (any other store "
                + "option may change freely), or move the corpus with POST /admin/v1/tenants/" + tenantId + "/store:relocate");
    }

    /**
     * {@code <provider>-<12 hex digits>}: a hash of the location options, sorted. For a definition that sets none of them
     * (every bundled tenant file) this is the name the server used before locations existed, when it hashed all options.
     */
    public String directoryName() {
        return directoryName(provider, options);
    }

    /** The name of a plugin instance's data directory for these options (sorted, so the name is stable). */
    static String directoryName(String provider, Map<String, String> options) {
        return provider + "-" + sha256(new TreeMap<>(options).toString()).substring(0, 12);
    }

    /**
     * Before store locations, every store configuration had its own data directory, named after all its options: a
     * tenant with a non-location option set (say {@code quantization: int8}) had its indexes under that name. The first
     * time the tenant's runtime is built, its sub-directory ({@code <tenant>/}, the layout of the bundled file store) is
     * moved from there into its location's directory, unless the location already holds data of the tenant. Names of
     * configurations with two or more options were never stable (they followed a map's per-process order), so only
     * configurations of at most one option had a directory to move.
     */
    static void moveLegacyDirectory(Path storesDirectory, PluginChoice store, StoreLocation location, String tenantId) {
        Path legacy = storesDirectory.resolve(directoryName(store.provider(), store.config())).resolve(tenantId);
        Path current = storesDirectory.resolve(location.directoryName()).resolve(tenantId);
        if (legacy.equals(current) || !Files.isDirectory(legacy) || Files.exists(current)) {
            return;
        }
        try {
            Files.createDirectories(current.getParent());
            Files.move(legacy, current);
            LOG.info("moved the store data of tenant " + tenantId + " from " + legacy + " to " + current
                    + " (data directories are now named after the store's location options only)");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot move the store data of tenant " + tenantId + " from " + legacy + " to " + current, e);
        }
    }

    static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
