package io.corpora.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestFilesTest {

    @TempDir
    Path temp;

    @Test
    void copyTreeThenDeleteTreeLeavesTheSourceAndNothingOfTheCopy() throws Exception {
        Path source = Files.createDirectories(temp.resolve("source/a/b"));
        Files.writeString(source.resolve("deep.txt"), "deep");
        Files.writeString(temp.resolve("source/top.txt"), "top");

        Path copy = TestFiles.copyTree(temp.resolve("source"), temp.resolve("copy"));
        assertEquals("deep", Files.readString(copy.resolve("a/b/deep.txt")));

        TestFiles.deleteTree(copy);
        assertFalse(Files.exists(copy));
        assertTrue(Files.exists(temp.resolve("source/a/b/deep.txt")), "only the tree asked for is deleted");
    }

    @Test
    void deletingATreeThatIsNotThereDoesNothing() throws Exception {
        TestFiles.deleteTree(temp.resolve("absent"));
        assertTrue(Files.isDirectory(temp));
    }
}
