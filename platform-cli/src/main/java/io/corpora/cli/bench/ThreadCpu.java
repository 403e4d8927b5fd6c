package io.corpora.cli.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A process's CPU time per kind of thread, from {@code /proc/<pid>/task/<tid>/stat}: where a server's time went beside the
 * embedder (its ONNX workers against the JIT compiler, the garbage collector, Lucene merges, request and job threads).
 * Threads are grouped by name without its trailing number ({@code embedder-onnx-3} counts as {@code embedder-onnx}). A
 * thread that ends between two snapshots takes its time with it; {@link #since} reports that time as {@link #ENDED},
 * the process's own total minus what the threads alive at the end account for.
 */
record ThreadCpu(double processSeconds, Map<String, Double> secondsByKind) {

    /** The time of threads that ended between two snapshots (Liberty's executor retires idle request threads). */
    static final String ENDED = "(threads that ended)";

    /** Linux's USER_HZ, the unit of the CPU times in {@code /proc/<pid>/stat}. */
    private static final double CLOCK_TICKS_PER_SECOND = 100;

    static ThreadCpu of(long pid) throws IOException {
        Path process = Path.of("/proc", Long.toString(pid));
        Map<String, Double> byKind = new TreeMap<>();
        try (Stream<Path> tasks = Files.list(process.resolve("task"))) {
            tasks.forEach(task -> {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    byKind.merge(kind(stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'))), seconds(stat), Double::sum);
                } catch (NoSuchFileException ended) {
                    // the thread ended while we listed them
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
        return new ThreadCpu(seconds(Files.readString(process.resolve("stat"))), byKind);
    }

    /** Each kind's CPU seconds from {@code before} to this snapshot, largest first, with {@link #ENDED} among them. */
    Map<String, Double> since(ThreadCpu before) {
        Map<String, Double> spent = new TreeMap<>();
        double alive = 0;
        for (Map.Entry<String, Double> kind : secondsByKind.entrySet()) {
            double seconds = kind.getValue() - before.secondsByKind.getOrDefault(kind.getKey(), 0.0);
            spent.put(kind.getKey(), seconds);
            alive += seconds;
        }
        spent.put(ENDED, Math.max(0, processSeconds - before.processSeconds - alive));
        Map<String, Double> largestFirst = new LinkedHashMap<>();
        spent.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                .forEach(e -> largestFirst.put(e.getKey(), e.getValue()));
        return largestFirst;
    }

    /** A thread's name as the kernel keeps it (15 characters) without its trailing number: one name per kind of thread. */
    static String kind(String threadName) {
        return threadName.replaceAll("[-#. 0-9]+$", "");
    }

    /** User + system CPU seconds of a {@code stat} line (fields 14 and 15, counted after the command name). */
    private static double seconds(String stat) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / CLOCK_TICKS_PER_SECOND;
    }
}
