package io.corpora.store.lucene;

import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.VectorSimilarity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.DoublePoint;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.util.BytesRef;

/**
 * The Lucene document of one chunk. Every metadata key is indexed under a type prefix, one value per element of
 * a multi-valued field, so a term or point query on the field is "any element matches":
 * <ul>
 *   <li>{@code s.<key>}: string values (exact terms; lexicographic ranges by term order),</li>
 *   <li>{@code n.<key>}: numeric values as doubles (points: equality by value, ranges),</li>
 *   <li>{@code b.<key>}: boolean values as {@code true}/{@code false} terms,</li>
 *   <li>{@code _keys}: the name of every present key (for {@code exists}).</li>
 * </ul>
 * The vector lives in {@code vec.<width>}, so one namespace can hold embeddings of two widths while a
 * re-embedding migration runs.
 */
final class ChunkDocuments {

    static final String ID = "_id";
    static final String DOCUMENT = "_doc";
    static final String INDEX = "_index";
    static final String TEXT = "_text";
    static final String BODY = "_body";
    /** The chunk's title and heading path, analysed like the body; written only when the keyword leg boosts titles. */
    static final String TITLE = "_title";
    /** The metadata key the chunker stores a document's title under (the loader's title). */
    static final String TITLE_KEY = "title";
    static final String PAYLOAD = "_payload";
    static final String KEYS = "_keys";
    static final String STRING_PREFIX = "s.";
    static final String NUMBER_PREFIX = "n.";
    static final String BOOLEAN_PREFIX = "b.";
    static final String VECTOR_PREFIX = "vec.";

    private ChunkDocuments() {}

    static String vectorField(int width) {
        return VECTOR_PREFIX + width;
    }

    static VectorSimilarityFunction luceneSimilarity(VectorSimilarity metric) {
        return switch (metric) {
            case COSINE -> VectorSimilarityFunction.COSINE;
            case L2 -> VectorSimilarityFunction.EUCLIDEAN;
            case INNER_PRODUCT -> VectorSimilarityFunction.MAXIMUM_INNER_PRODUCT;
        };
    }

    /**
     * Builds the document; validates the vector so a batch fails before anything is written. With {@code titleField},
     * the chunk's title and heading path are also indexed on their own ({@value #TITLE}).
     */
    static Document toDocument(EmbeddedChunk embedded, VectorSimilarity metric, boolean titleField) {
        Chunk chunk = embedded.chunk();
        Document doc = new Document();
        doc.add(new StringField(ID, chunk.id(), Field.Store.YES));
        doc.add(new SortedDocValuesField(ID, new BytesRef(chunk.id())));
        doc.add(new StringField(DOCUMENT, chunk.documentId(), Field.Store.YES));
        doc.add(new StoredField(INDEX, chunk.index()));
        doc.add(new NumericDocValuesField(INDEX, chunk.index()));
        doc.add(new StoredField(TEXT, chunk.text()));
        doc.add(new TextField(BODY, embedded.indexText(), Field.Store.NO));
        String title = titleText(chunk);
        if (titleField && !title.isEmpty()) {
            doc.add(new TextField(TITLE, title, Field.Store.NO));
        }
        doc.add(new StoredField(PAYLOAD, StoredPayload.encode(chunk.headingPath(), chunk.metadata())));
        for (Map.Entry<String, Object> entry : chunk.metadata().entrySet()) {
            doc.add(new StringField(KEYS, entry.getKey(), Field.Store.NO));
            if (entry.getValue() instanceof List<?> values) {
                values.forEach(value -> addMetadataValue(doc, entry.getKey(), value));
            } else {
                addMetadataValue(doc, entry.getKey(), entry.getValue());
            }
        }
        if (embedded.hasEmbedding()) {
            float[] vector = embedded.embedding();
            requireUsableVector(vector, metric, "chunk '" + chunk.id() + "'");
            doc.add(new KnnFloatVectorField(vectorField(vector.length), vector, luceneSimilarity(metric)));
        }
        return doc;
    }

    /**
     * The labels a chunk's index text opens with: its document title ({@value #TITLE_KEY} metadata), unless the heading
     * path starts with it, then the heading path; empty when it has neither.
     */
    static String titleText(Chunk chunk) {
        List<String> labels = new ArrayList<>();
        if (chunk.metadata().get(TITLE_KEY) instanceof String title && !title.isBlank()
                && (chunk.headingPath().isEmpty() || !chunk.headingPath().get(0).strip().equals(title.strip()))) {
            labels.add(title.strip());
        }
        labels.addAll(chunk.headingPath());
        return String.join("\n", labels);
    }

    /** Cosine is undefined for a zero vector; Lucene would produce NaN scores. */
    static void requireUsableVector(float[] vector, VectorSimilarity metric, String what) {
        if (vector.length > 1024) {
            throw new IllegalArgumentException(what + " has " + vector.length + " dimensions; Lucene's HNSW holds at most 1024");
        }
        if (metric == VectorSimilarity.COSINE) {
            for (float v : vector) {
                if (v != 0) {
                    return;
                }
            }
            throw new IllegalArgumentException(what + " is a zero vector, for which cosine similarity is undefined");
        }
    }

    private static void addMetadataValue(Document doc, String key, Object value) {
        if (value instanceof String s) {
            doc.add(new StringField(STRING_PREFIX + key, s, Field.Store.NO));
        } else if (value instanceof Boolean b) {
            doc.add(new StringField(BOOLEAN_PREFIX + key, b.toString(), Field.Store.NO));
        } else if (value instanceof Number n) {
            doc.add(new DoublePoint(NUMBER_PREFIX + key, n.doubleValue()));
        }
    }

    /** Reads a chunk back from its stored fields. */
    static Chunk readChunk(StoredFields storedFields, int docId) throws java.io.IOException {
        Document doc = storedFields.document(docId);
        BytesRef payload = doc.getBinaryValue(PAYLOAD);
        StoredPayload.Decoded decoded = StoredPayload.decode(payload.bytes, payload.offset, payload.length);
        return new Chunk(doc.get(ID), doc.get(DOCUMENT), doc.getField(INDEX).numericValue().intValue(), doc.get(TEXT),
                decoded.headingPath(), decoded.metadata());
    }
}
