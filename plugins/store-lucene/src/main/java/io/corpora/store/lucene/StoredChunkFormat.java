package io.corpora.store.lucene;

import java.io.IOException;
import org.apache.lucene.codecs.StoredFieldsFormat;
import org.apache.lucene.codecs.StoredFieldsReader;
import org.apache.lucene.codecs.StoredFieldsWriter;
import org.apache.lucene.codecs.lucene90.Lucene90StoredFieldsFormat;
import org.apache.lucene.codecs.lucene90.compressing.Lucene90CompressingStoredFieldsFormat;
import org.apache.lucene.index.FieldInfos;
import org.apache.lucene.index.SegmentInfo;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;

/**
 * Chunk texts and metadata stored in smaller compressed blocks than Lucene's default. Loading one hit decompresses the
 * part of its block up to it, Lucene 9's default blocks (80 KB, for compression) hold tens of chunks, and a hybrid
 * retrieval loads the hits of both legs (100 for a top 10): on SciFact its two legs took a third less time in 16 KB
 * blocks ({@code StoredBlockBenchmark}). Written as Lucene's own BEST_SPEED format (the same LZ4 with a preset
 * dictionary; the block size is recorded in the segment), so the standard codec reads these segments and this store
 * reads older ones; merges rewrite older segments with the configured size.
 */
final class StoredChunkFormat extends StoredFieldsFormat {

    /** The name, compression and documents per block of {@link Lucene90StoredFieldsFormat.Mode#BEST_SPEED}. */
    private static final String FORMAT_NAME = "Lucene90StoredFieldsFastData";
    private static final int MAX_DOCS_PER_BLOCK = 1024;
    private static final int BLOCK_SHIFT = 10;

    private final Lucene90CompressingStoredFieldsFormat writing;
    private final Lucene90StoredFieldsFormat reading = new Lucene90StoredFieldsFormat(Lucene90StoredFieldsFormat.Mode.BEST_SPEED);

    StoredChunkFormat(int blockBytes) {
        writing = new Lucene90CompressingStoredFieldsFormat(FORMAT_NAME, Lucene90StoredFieldsFormat.BEST_SPEED_MODE, blockBytes,
                MAX_DOCS_PER_BLOCK, BLOCK_SHIFT);
    }

    @Override
    public StoredFieldsReader fieldsReader(Directory directory, SegmentInfo segment, FieldInfos fields, IOContext context) throws IOException {
        return reading.fieldsReader(directory, segment, fields, context);
    }

    @Override
    public StoredFieldsWriter fieldsWriter(Directory directory, SegmentInfo segment, IOContext context) throws IOException {
        segment.putAttribute(Lucene90StoredFieldsFormat.MODE_KEY, Lucene90StoredFieldsFormat.Mode.BEST_SPEED.name());
        return writing.fieldsWriter(directory, segment, context);
    }
}
