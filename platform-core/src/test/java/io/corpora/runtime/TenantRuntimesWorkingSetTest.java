package io.corpora.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.controlplane.PluginChoice;
import io.corpora.controlplane.TenantDefinition;
import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.store.SearchRequest;
import io.corpora.spi.store.ScoredChunk;
import io.corpora.testkit.Poll;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The working set on the real Lucene store: tenants beyond the bound or idle are closed (their index files released, as
 * the process's own open file table shows) and reopened by their next call with every acknowledged write, while other
 * threads keep reading and writing them.
 */
class TenantRuntimesWorkingSetTest {

    @RegisterExtension
    static final RealPluginRuntimes real = new RealPluginRuntimes();

    @TempDir
    Path data;

    private TenantRuntimes runtimes;

    @Test
    void closeAndReopenUnderConcurrentReadsAndWritesLosesNothingAndHonoursTheBound() throws Exception {
        int max = 3;
        runtimes = runtimes(max);
        int tenants = 8;
        int writesPerTenant = 10;
        Map<String, AtomicInteger> acknowledged = new ConcurrentHashMap<>();
        AtomicInteger readFailures = new AtomicInteger();
        ExecutorService clients = Executors.newFixedThreadPool(6);
        List<Future<?>> work = new ArrayList<>();
        for (int t = 0; t < tenants; t++) {
            String tenant = "t" + t;
            acknowledged.put(tenant, new AtomicInteger());
            work.add(clients.submit(() -> {
                for (int i = 0; i < writesPerTenant; i++) {
                    runtimes.runtime(tenant(tenant)).store().upsert(Namespace.of(tenant), List.of(chunk(tenant + ":" + i, "note " + i + " of " + tenant)));
                    acknowledged.get(tenant).incrementAndGet();
                }
                return null;
            }));
            work.add(clients.submit(() -> {
                for (int i = 0; i < writesPerTenant; i++) {
                    TenantRuntime runtime = runtimes.runtime(tenant(tenant));
                    long before = acknowledged.get(tenant).get();
                    long seen = runtime.store().count(Namespace.of(tenant), MetadataFilter.all());
                    List<ScoredChunk> hits = runtime.store().search(Namespace.of(tenant), SearchRequest.vector(vector(tenant + ":0"), 3, MetadataFilter.all(), null, null));
                    if (seen < before || hits.stream().anyMatch(h -> !h.chunk().id().startsWith(tenant + ":"))) {
                        readFailures.incrementAndGet(); // an acknowledged write went missing, or another tenant's chunk showed
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : work) {
            try {
                f.get(300, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                Thread.getAllStackTraces().forEach((thread, stack) -> System.err.println(thread + "\n  " + java.util.Arrays.toString(stack)));
                throw e;
            }
        }
        clients.shutdown();

        assertEquals(0, readFailures.get(), "every read saw every write acknowledged before it, and only its own tenant");
        // evictions close in the background
        Poll.until("the working set back within its bound", Duration.ofSeconds(30), () -> runtimes.workingSet().size() <= max);
        assertTrue(runtimes.workingSet().size() <= max, "working set within its bound: " + runtimes.workingSet().size());
        // A namespace written in the last few seconds also holds its translog open (until the background commit), so the
        // indexes are counted by their write locks.
        assertTrue(openFilesUnder(data, "write.lock") <= max, "at most one index (its write lock) open per tenant in the set: "
                + openFilesUnder(data, "write.lock"));
        for (int t = 0; t < tenants; t++) {
            String tenant = "t" + t;
            assertEquals(writesPerTenant, runtimes.runtime(tenant(tenant)).store().count(Namespace.of(tenant), MetadataFilter.all()),
                    tenant + " reopened with all its writes");
        }
    }

    @Test
    void aDeactivatedTenantReleasesItsFilesAndReopensWithItsData() throws IOException {
        runtimes = runtimes(10);
        for (String tenant : List.of("a", "b")) {
            runtimes.runtime(tenant(tenant)).store().upsert(Namespace.of(tenant), List.of(chunk(tenant + ":0", "kept")));
        }
        assertTrue(openFilesUnder(data.resolve("vector-store")) >= 2, "both indexes open");
        long openForB = openFilesUnder(tenantDir("b"));
        assertTrue(openForB > 0);

        runtimes.deactivate("a");

        assertEquals(0, openFilesUnder(tenantDir("a")), "nothing of the inactive tenant stays open");
        assertEquals(openForB, openFilesUnder(tenantDir("b")), "the other tenant is untouched");
        assertEquals(1, runtimes.workingSet().size());
        assertEquals(1, runtimes.runtime(tenant("a")).store().count(Namespace.of("a"), MetadataFilter.all()), "reactivated with its data");
    }

    @Test
    void idleTenantsCloseAndTheirNextCallReopensThem() throws Exception {
        AtomicLong nanos = new AtomicLong();
        runtimes = real.open(data, new TenantRuntimes.WorkingSetPolicy(100, Duration.ofMinutes(10)), nanos::get);
        List<String> released = new CopyOnWriteArrayList<>();
        runtimes.addReleaseListener(released::add);
        runtimes.runtime(tenant("a")).store().upsert(Namespace.of("a"), List.of(chunk("a:0", "kept")));

        nanos.addAndGet(Duration.ofMinutes(10).toNanos());
        assertEquals(0, runtimes.closeIdle(), "idle exactly as long as the timeout: still open");
        assertTrue(openFilesUnder(data) > 0);

        nanos.addAndGet(1);
        assertEquals(1, runtimes.closeIdle());
        assertEquals(0, openFilesUnder(data), "the idle tenant's index is closed");
        assertEquals(List.of("a"), released, "the listener heard of it once its files were closed");
        assertEquals(1, runtimes.runtime(tenant("a")).store().count(Namespace.of("a"), MetadataFilter.all()));
        assertTrue(runtimes.workingSet().isOpen("a"), "back in the working set");
    }

    @Test
    void everyWayOfLeavingTheWorkingSetTellsTheReleaseListener() throws Exception {
        runtimes = runtimes(2);
        Map<String, AtomicInteger> released = new ConcurrentHashMap<>();
        runtimes.addReleaseListener(tenant -> released.computeIfAbsent(tenant, t -> new AtomicInteger()).incrementAndGet());
        for (String tenant : List.of("lru", "b", "c")) { // the third evicts the least recently used
            runtimes.runtime(tenant(tenant)).store().upsert(Namespace.of(tenant), List.of(chunk(tenant + ":0", "kept")));
        }
        // closed in the background, not by the lease that evicted it
        Poll.until("'lru' released", Duration.ofSeconds(30), () -> released.containsKey("lru"));
        assertEquals(Map.of("lru", 1), counts(released), "evicted beyond the bound");

        runtimes.deactivate("b");
        runtimes.forget("c");
        assertEquals(Map.of("lru", 1, "b", 1, "c", 1), counts(released), "deactivated and deleted");

        runtimes.deactivate("never-opened");
        assertEquals(3, released.size(), "a tenant outside the set has nothing to release");

        TenantWorkingSet workingSet = runtimes.workingSet();
        runtimes.runtime(tenant("lru")).store().count(Namespace.of("lru"), MetadataFilter.all());
        AtomicInteger whileHeld = new AtomicInteger(-1);
        assertTrue(workingSet.runIfOpen("lru", () -> {
            runtimes.deactivate("lru"); // requested while held: runs when the holder lets go
            whileHeld.set(released.get("lru").get());
        }));
        assertEquals(1, whileHeld.get(), "not released while held");
        assertEquals(2, released.get("lru").get(), "released once let go; it came back in between");
        assertFalse(workingSet.runIfOpen("lru", () -> { }), "not open: runIfOpen neither runs nor reopens it");
        assertFalse(workingSet.isOpen("lru"));
    }

    private static Map<String, Integer> counts(Map<String, AtomicInteger> released) {
        Map<String, Integer> counts = new java.util.TreeMap<>();
        released.forEach((tenant, count) -> counts.put(tenant, count.get()));
        return counts;
    }

    private Path tenantDir(String tenant) throws IOException {
        try (Stream<Path> stores = Files.list(data.resolve("vector-store"))) {
            return stores.filter(Files::isDirectory).findFirst().orElseThrow().resolve(tenant);
        }
    }

    /** File descriptors of this process open on files under {@code root} (the Lucene write locks, mainly). */
    static long openFilesUnder(Path root) throws IOException {
        return openFilesUnder(root, null);
    }

    /** Open files under {@code root}, only those named {@code name} when it is not null. */
    static long openFilesUnder(Path root, String name) throws IOException {
        Path real = root.toRealPath();
        long count = 0;
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    Path target = Files.readSymbolicLink(fd);
                    if (target.startsWith(real) && (name == null || target.getFileName().toString().equals(name))) {
                        count++;
                    }
                } catch (IOException gone) {
                    // closed meanwhile
                }
            }
        }
        return count;
    }

    private TenantRuntimes runtimes(int max) {
        return real.open(data, new TenantRuntimes.WorkingSetPolicy(max, Duration.ofHours(1)));
    }

    private static TenantDefinition tenant(String id) {
        return new TenantDefinition(id, null, null, new PluginChoice("lucene", Map.of()), new PluginChoice("onnx", Map.of()),
                null, null, null, null, null);
    }

    private static float[] vector(String id) {
        float[] vector = new float[384];
        vector[Math.floorMod(id.hashCode(), 384)] = 1;
        vector[(Math.floorMod(id.hashCode(), 384) + 1) % 384] = 0.5f;
        return vector;
    }

    private static EmbeddedChunk chunk(String id, String text) {
        return new EmbeddedChunk(new Chunk(id, "doc-" + id, 0, text, List.of(), Map.of()), vector(id));
    }
}
