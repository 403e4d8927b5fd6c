package io.corpora.spi;

import java.util.Objects;
import java.util.Optional;

/**
 * The isolation scope of every {@link io.corpora.spi.store.VectorStore} call: a tenant and an optional partition.
 *
 * <p>Stores address exactly one namespace per call: a namespace without a partition is the tenant's
 * default partition, not "all partitions". Two namespaces never share chunks, even with equal ids.
 */
public record Namespace(String tenant, String partition) {

    /** The partition value stores persist for the tenant's default partition. */
    public static final String DEFAULT_PARTITION = "_default";

    public Namespace {
        Identifiers.requireNamespaceId("tenant", tenant);
        if (partition != null && !partition.equals(DEFAULT_PARTITION)) {
            Identifiers.requireNamespaceId("partition", partition);
        }
        if (DEFAULT_PARTITION.equals(partition)) {
            partition = null;
        }
    }

    public static Namespace of(String tenant) {
        return new Namespace(tenant, null);
    }

    public static Namespace of(String tenant, String partition) {
        return new Namespace(tenant, partition);
    }

    public Optional<String> partitionOptional() {
        return Optional.ofNullable(partition);
    }

    /** The partition as stores persist it: never null. */
    public String partitionKey() {
        return partition == null ? DEFAULT_PARTITION : partition;
    }

    /** A stable, path- and URL-safe key, e.g. {@code acme} or {@code acme~legal}. */
    public String key() {
        return partition == null ? tenant : tenant + "~" + partition;
    }

    public boolean sameAs(Namespace other) {
        return Objects.equals(this, other);
    }

    @Override
    public String toString() {
        return key();
    }
}
