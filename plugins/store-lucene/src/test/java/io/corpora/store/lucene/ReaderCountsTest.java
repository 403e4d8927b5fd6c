package io.corpora.store.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.Test;

class ReaderCountsTest {

    private static final Query EMBEDDER_A = new TermQuery(new Term("embedder", "a"));

    @Test
    void aReadersCountIsRememberedExactAndANewReaderCountsAgain() throws IOException {
        ReaderCounts counts = new ReaderCounts();
        try (ByteBuffersDirectory directory = new ByteBuffersDirectory();
             IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig(new StandardAnalyzer()))) {
            add(writer, "1", "a");
            add(writer, "2", "a");
            add(writer, "3", "b");
            writer.commit();
            try (DirectoryReader first = DirectoryReader.open(directory)) {
                IndexSearcher searcher = new IndexSearcher(first);
                assertEquals(2, counts.count(searcher, EMBEDDER_A));
                // the index changes under an open reader: that reader still sees 2, and so does its remembered count
                add(writer, "4", "a");
                writer.deleteDocuments(new Term("id", "1"));
                writer.commit();
                assertEquals(2, counts.count(searcher, EMBEDDER_A));
                assertEquals(1, counts.readers());
                try (DirectoryReader second = DirectoryReader.openIfChanged(first)) {
                    assertEquals(2, counts.count(new IndexSearcher(second), EMBEDDER_A)); // 2 and 4: counted afresh
                    assertEquals(2, counts.readers());
                }
                assertEquals(1, counts.readers(), "a closed reader's counts are dropped");
            }
            assertEquals(0, counts.readers());
        }
    }

    @Test
    void pastItsBoundAReaderCountsEachTimeAndStillAnswersExactly() throws IOException {
        ReaderCounts counts = new ReaderCounts();
        try (ByteBuffersDirectory directory = new ByteBuffersDirectory();
             IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig(new StandardAnalyzer()))) {
            for (int i = 0; i < ReaderCounts.PER_READER + 10; i++) {
                add(writer, "d" + i, "e" + i);
            }
            add(writer, "extra", "e3");
            writer.commit();
            try (DirectoryReader reader = DirectoryReader.open(directory)) {
                IndexSearcher searcher = new IndexSearcher(reader);
                for (int i = 0; i < ReaderCounts.PER_READER + 10; i++) {
                    assertEquals(i == 3 ? 2 : 1, counts.count(searcher, new TermQuery(new Term("embedder", "e" + i))));
                }
                assertEquals(1, counts.count(searcher, new TermQuery(new Term("embedder", "e" + (ReaderCounts.PER_READER + 5)))));
                assertEquals(0, counts.count(searcher, new TermQuery(new Term("embedder", "none"))));
            }
        }
    }

    private static void add(IndexWriter writer, String id, String embedder) throws IOException {
        Document document = new Document();
        document.add(new StringField("id", id, Field.Store.NO));
        document.add(new StringField("embedder", embedder, Field.Store.NO));
        writer.addDocument(document);
    }
}
