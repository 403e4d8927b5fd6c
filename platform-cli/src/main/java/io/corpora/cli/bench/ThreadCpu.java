package io.corpora.cli.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A snapshot of a process's CPU time per thread, from {@code /proc/<pid>/task/<tid>/stat}: where a server's time went
 * beside the embedder (its ONNX workers against the JIT compiler, the garbage collector, Lucene merges, request and job
 * threads). Threads are grouped by name without its trailing number ({@code embedder-onnx-3} counts as
 * {@code embedder-onnx}). A thread that ends takes its time out of {@code /proc}: {@link Tracker} keeps what each thread
 * had spent when last seen, so only the time after a thread's last snapshot is left unnamed, as {@link #ENDED}.
 */
record ThreadCpu(double processSeconds, Map<Task, Double> secondsByThread) {

    /** CPU time no snapshot saw a living thread spend (it ended before the next one): the process's total minus the rest. */
    static final String ENDED = "(threads that ended)";

    /** Linux's USER_HZ, the unit of the CPU times in {@code /proc/<pid>/stat}. */
    private static final double CLOCK_TICKS_PER_SECOND = 100;

    /** One thread (a task, to Linux): its id and start time (a tid may be reused once the thread ends), and its kind. */
    record Task(long tid, long startTicks, String kind) {}

    static ThreadCpu of(long pid) throws IOException {
        Path process = Path.of("/proc", Long.toString(pid));
        Map<Task, Double> byThread = new HashMap<>();
        try (Stream<Path> tasks = Files.list(process.resolve("task"))) {
            tasks.forEach(directory -> {
                try {
                    String stat = Files.readString(directory.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    Task task = new Task(Long.parseLong(directory.getFileName().toString()), Long.parseLong(fields(stat)[19]), kind(name));
                    byThread.put(task, seconds(stat));
                } catch (NoSuchFileException ended) {
                    // the thread ended while we listed them
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
        return new ThreadCpu(seconds(Files.readString(process.resolve("stat"))), byThread);
    }

    /**
     * The CPU time spent since a first snapshot, per kind of thread, from every snapshot {@link #observe observed} since:
     * a thread that ended between two snapshots keeps, under its own kind, what it had spent when last seen.
     */
    static final class Tracker {
        private final ThreadCpu first;
        private final Map<Task, Double> lastSeen = new HashMap<>();
        private double lastProcessSeconds;

        Tracker(ThreadCpu first) {
            this.first = first;
            observe(first);
        }

        synchronized void observe(ThreadCpu snapshot) {
            lastSeen.putAll(snapshot.secondsByThread);
            lastProcessSeconds = Math.max(lastProcessSeconds, snapshot.processSeconds);
        }

        /** Each kind's CPU seconds since the first snapshot, largest first, with {@link #ENDED} among them. */
        synchronized Map<String, Double> spentByKind() {
            Map<String, Double> spent = new TreeMap<>();
            double named = 0;
            for (Map.Entry<Task, Double> task : lastSeen.entrySet()) {
                // A thread born after the first snapshot started from zero.
                double seconds = task.getValue() - first.secondsByThread.getOrDefault(task.getKey(), 0.0);
                spent.merge(task.getKey().kind(), seconds, Double::sum);
                named += seconds;
            }
            spent.put(ENDED, Math.max(0, lastProcessSeconds - first.processSeconds - named));
            Map<String, Double> largestFirst = new LinkedHashMap<>();
            spent.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                    .forEach(e -> largestFirst.put(e.getKey(), e.getValue()));
            return largestFirst;
        }
    }

    /** A thread's name as the kernel keeps it (15 characters) without its trailing number: one name per kind of thread. */
    static String kind(String threadName) {
        return threadName.replaceAll("[-#. 0-9]+$", "");
    }

    /** User + system CPU seconds of a {@code stat} line (fields 14 and 15). */
    private static double seconds(String stat) {
        String[] fields = fields(stat);
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / CLOCK_TICKS_PER_SECOND;
    }

    /** A {@code stat} line's fields after the command name: index 0 is field 3 (the state). */
    private static String[] fields(String stat) {
        return stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    }
}
