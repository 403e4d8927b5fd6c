package io.corpora.cli.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BeirDatasetTest {

    @TempDir
    Path dir;

    private void write(String name, String content) throws IOException {
        Path file = dir.resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
    }

    @Test
    void readsTheCorpusAndBothSplitLayouts() throws IOException {
        write("corpus.jsonl", "{\"_id\":\"10\",\"title\":\"T\",\"text\":\"body\",\"metadata\":{}}\n\n{\"_id\":\"11\",\"text\":\"only text\"}\n");
        write("queries.jsonl", "{\"_id\":\"q1\",\"text\":\"test query\"}\n");
        write("qrels.tsv", "query-id\tcorpus-id\tscore\nq1\t10\t1\nq1\t11\t2\n");
        write("train/queries.jsonl", "{\"_id\":\"t1\",\"text\":\"train query\"}\n");
        write("train/qrels.tsv", "query-id\tcorpus-id\tscore\nt1\t11\t1\n");

        BeirDataset test = BeirDataset.open(dir, "test");
        List<BeirDataset.CorpusDocument> docs = new ArrayList<>();
        test.forEachDocument(docs::add);
        assertEquals(List.of(new BeirDataset.CorpusDocument("10", "T", "body"), new BeirDataset.CorpusDocument("11", "", "only text")), docs);
        assertEquals(List.of(new BeirDataset.Query("q1", "test query")), test.queries());
        assertEquals(Map.of("q1", Map.of("10", 1, "11", 2)), test.qrels());

        BeirDataset train = BeirDataset.open(dir, "train");
        assertEquals(List.of(new BeirDataset.Query("t1", "train query")), train.queries());
        assertEquals(Map.of("t1", Map.of("11", 1)), train.qrels());
    }

    @Test
    void missingPartsAndBadLinesAreNamed() throws IOException {
        IllegalArgumentException noCorpus = assertThrows(IllegalArgumentException.class, () -> BeirDataset.open(dir, "test"));
        assertTrue(noCorpus.getMessage().contains("corpus.jsonl"));
        write("corpus.jsonl", "{\"title\":\"no id\"}\n");
        write("queries.jsonl", "not json\n");
        write("qrels.tsv", "header\nq1\t10\n");
        BeirDataset dataset = BeirDataset.open(dir, "test");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> dataset.forEachDocument(d -> {})).getMessage().contains("no '_id'"));
        assertTrue(assertThrows(IllegalArgumentException.class, dataset::queries).getMessage().contains("line 1 is not JSON"));
        assertTrue(assertThrows(IllegalArgumentException.class, dataset::qrels).getMessage().contains("line 2"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> BeirDataset.open(dir, "dev")).getMessage().contains("no 'dev' split"));
    }
}
