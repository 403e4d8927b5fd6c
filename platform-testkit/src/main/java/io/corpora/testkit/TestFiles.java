package io.corpora.testkit;

import java.io.IOException;
import java.nio.file.CopyOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** File-tree chores tests share: copying a plugin bundle, a server template or a crashed index aside, deleting a tree. */
public final class TestFiles {

    private TestFiles() {}

    /**
     * Copies the tree under {@code from} to {@code to}, directories created, files copied with {@code options}
     * (without {@link java.nio.file.StandardCopyOption#REPLACE_EXISTING}, an existing file fails the copy).
     *
     * @return {@code to}
     */
    public static Path copyTree(Path from, Path to, CopyOption... options) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path source : files.toList()) {
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target, options);
                }
            }
        }
        return to;
    }

    /** Deletes {@code root} and everything under it, deepest first; nothing when it does not exist. A file that cannot go fails it. */
    public static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }
}
