package io.corpora.cli.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What a running JVM holds, read from outside it: open files and threads ({@code /proc/<pid>}), resident memory, and
 * the live heap after a full collection ({@code jcmd <pid> GC.run}, then {@code GC.heap_info}). Linux only.
 */
public final class ProcessResources {

    /** One reading; {@code liveHeapBytes} is -1 when jcmd could not attach. */
    public record Sample(long openFiles, long threads, long rssBytes, long liveHeapBytes) {}

    private static final Pattern VM_RSS = Pattern.compile("(?m)^VmRSS:\\s+(\\d+) kB");
    private static final Pattern THREADS = Pattern.compile("(?m)^Threads:\\s+(\\d+)");
    /** G1: "garbage-first heap   total 262144K, used 81234K"; other collectors print "used NNNK" too. */
    private static final Pattern HEAP_USED = Pattern.compile("heap\\s+total\\s+\\d+K, used (\\d+)K");

    private final long pid;
    private final Path jcmd;

    public ProcessResources(long pid) {
        this.pid = pid;
        this.jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    }

    public long pid() {
        return pid;
    }

    public Sample sample() throws IOException, InterruptedException {
        Path proc = Path.of("/proc", Long.toString(pid));
        long files;
        try (Stream<Path> fds = Files.list(proc.resolve("fd"))) {
            files = fds.count();
        }
        String status = Files.readString(proc.resolve("status"));
        return new Sample(files, number(THREADS, status), number(VM_RSS, status) * 1024, liveHeap());
    }

    /** Full GC (twice: the first may only start a concurrent cycle's clean-up), then the heap's used bytes. */
    private long liveHeap() throws IOException, InterruptedException {
        if (!Files.isExecutable(jcmd)) {
            return -1;
        }
        jcmd("GC.run");
        jcmd("GC.run");
        Matcher used = HEAP_USED.matcher(jcmd("GC.heap_info"));
        return used.find() ? Long.parseLong(used.group(1)) * 1024 : -1;
    }

    /** The class histogram ({@code jcmd GC.class_histogram}, which collects first): the top {@code lines} rows. */
    public List<String> histogram(int lines) throws IOException, InterruptedException {
        return jcmd("GC.class_histogram").lines().limit(lines + 3L).toList();
    }

    private String jcmd(String command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(jcmd.toString(), Long.toString(pid), command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(Duration.ofMinutes(2).toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException("jcmd " + command + " did not finish");
        }
        return out;
    }

    private static long number(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }
}
