package io.corpora.store.lucene;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

/** A directory tree as one deflated zip file, for offloaded tenants. Entries are relative paths with '/' separators. */
final class TreeArchive {

    private TreeArchive() {}

    /** Writes every regular file under {@code root} into {@code archive} and forces it to disk. */
    static void zip(Path root, Path archive) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
            files = walk.filter(Files::isRegularFile).filter(f -> !f.getFileName().toString().equals("write.lock")).sorted().toList();
        }
        try (OutputStream file = Files.newOutputStream(archive); ZipOutputStream zip = new ZipOutputStream(file)) {
            for (Path f : files) {
                zip.putNextEntry(new ZipEntry(root.relativize(f).toString().replace('\\', '/')));
                Files.copy(f, zip);
                zip.closeEntry();
            }
        }
        try (FileChannel channel = FileChannel.open(archive, StandardOpenOption.WRITE)) {
            channel.force(true);
        }
    }

    /** Unpacks {@code archive} into {@code target} (created), refusing entries that would land outside it. */
    static void unzip(Path archive, Path target) throws IOException {
        Files.createDirectories(target);
        Path base = target.toAbsolutePath().normalize();
        try (InputStream file = Files.newInputStream(archive); ZipInputStream zip = new ZipInputStream(file)) {
            for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
                Path out = base.resolve(entry.getName()).normalize();
                if (!out.startsWith(base) || entry.isDirectory()) {
                    if (!out.startsWith(base)) {
                        throw new IOException("archive entry '" + entry.getName() + "' points outside " + target);
                    }
                    continue;
                }
                Files.createDirectories(out.getParent());
                Files.copy(zip, out);
            }
        }
    }
}
