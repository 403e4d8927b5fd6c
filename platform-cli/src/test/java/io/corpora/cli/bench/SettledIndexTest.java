package io.corpora.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.testkit.Poll;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the bench waits for before measuring a tenant: a directory holding only its last commit's segment files. */
class SettledIndexTest {

    private static final Duration QUIET = Duration.ofMillis(200);
    private static final Duration DEADLINE = Duration.ofSeconds(2);

    @TempDir
    Path namespace;

    @Test
    void aSegmentFileTheLastCommitDoesNotNameIsAMergeStillWriting() throws Exception {
        try (FSDirectory directory = FSDirectory.open(namespace);
             IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig().setMergePolicy(NoMergePolicy.INSTANCE))) {
            for (int segment = 0; segment < 3; segment++) {
                Document document = new Document();
                document.add(new StringField("_id", "c" + segment, Field.Store.YES));
                writer.addDocument(document);
                writer.commit();
            }
        }
        Files.writeString(namespace.resolve("translog-7.tlog"), "the store's log beside the index is not a segment");
        assertTrue(Systems.awaitCommittedAndQuiet(namespace, QUIET, DEADLINE), "three committed segments and the store's log");

        Path merging = Files.writeString(namespace.resolve("_3.fdt"), "a merged segment's stored fields, not committed yet");
        assertFalse(Systems.awaitCommittedAndQuiet(namespace, QUIET, DEADLINE), "a merge is writing " + merging.getFileName());

        Files.delete(merging);
        Path committing = Files.writeString(namespace.resolve("pending_segments_5"), "a commit being written");
        assertFalse(Systems.awaitCommittedAndQuiet(namespace, QUIET, DEADLINE), "a commit is being written");
        Files.delete(committing);
        assertTrue(Systems.awaitCommittedAndQuiet(namespace, QUIET, DEADLINE));
    }

    @Test
    void aNamespaceWithoutItsFirstCommitIsWaitedForNotRefused() throws Exception {
        // As the server leaves a namespace just written over HTTP: a segment being flushed, the translog, no commit yet.
        Files.writeString(namespace.resolve("translog-1.tlog"), "acknowledged writes, durable before the first commit");
        Files.writeString(namespace.resolve("_0.fdt"), "a segment being flushed");
        assertFalse(Systems.awaitCommittedAndQuiet(namespace, QUIET, DEADLINE), "nothing is committed yet");

        // The count runs on a thread of its own; the commit comes only once that thread is waiting in its poll.
        CompletableFuture<Integer> counted = new CompletableFuture<>();
        Thread counter = new Thread(() -> {
            try {
                counted.complete(Systems.segments(namespace));
            } catch (Exception e) {
                counted.completeExceptionally(e);
            }
        }, "segments");
        counter.start();
        Poll.until("the count waiting for a first commit", Duration.ofSeconds(30),
                () -> counter.getState() == Thread.State.TIMED_WAITING || counted.isDone());
        assertFalse(counted.isDone(), "no commit yet, so no count: " + counted);

        Files.delete(namespace.resolve("_0.fdt"));
        try (FSDirectory directory = FSDirectory.open(namespace);
             IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig().setMergePolicy(NoMergePolicy.INSTANCE))) {
            Document document = new Document();
            document.add(new StringField("_id", "c0", Field.Store.YES));
            writer.addDocument(document);
            writer.commit();
        }
        assertEquals(1, counted.get(30, TimeUnit.SECONDS), "the count waited for the store's first commit");
        assertTrue(Systems.awaitCommittedAndQuiet(namespace, QUIET, DEADLINE));
    }
}
