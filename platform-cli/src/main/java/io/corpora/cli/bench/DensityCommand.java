package io.corpora.cli.bench;

import io.corpora.cli.Command;
import io.corpora.cli.Options;
import io.corpora.cli.UsageException;
import io.corpora.security.DevTokenMinter;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code corpora bench density}: tenant density of a live server ({@link DensityBench}), printed as a table and
 * written as CSV. Reached through {@link BenchCommand}.
 */
final class DensityCommand implements Command {

    @Override
    public String name() {
        return "bench";
    }

    @Override
    public String summary() {
        return "tenant density of a running server";
    }

    @Override
    public String usage() {
        return """
                usage: corpora bench density --pid PID [options]
                       corpora bench density --from-csv FILE [--label TEXT]   (table and plot of an earlier run's CSV)
                  --server URL         the server; default http://localhost:9080/
                  --pid PID            the server's JVM (open files, threads, RSS from /proc; live heap by jcmd)
                  --tenants N1,N2,…    checkpoints of provisioned tenants; default 0,1000,5000,10000
                  --clients N          provisioning clients; default 4
                  --steady-seconds S   at each checkpoint, retrievals of the newest tenant back to back for S seconds:
                                       their p50 and the server's CPU per retrieval; default 10, 0 to skip
                  --prefix P           tenant id prefix; default density-
                  --out FILE           CSV; default bench-results/density.csv
                  --histogram N        print the top N rows of the class histogram at the end
                  --key FILE           the development private key (the server must be in development mode)
                  --label TEXT         what the plot's titles name (default: the server's URL)
                Tenants that exist are kept, so a run can continue an earlier one. Beside the CSV goes a PNG of the same name:
                open files, threads, RSS and live heap against tenants provisioned.""";
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
        if (args.isEmpty() || !args.get(0).equals("density")) {
            throw new UsageException("name a measurement: density");
        }
        Options options = Options.parse(args.subList(1, args.size()),
                Set.of("server", "pid", "tenants", "clients", "steady-seconds", "prefix", "out", "histogram", "key", "from-csv", "label"), Set.of());
        if (options.string("from-csv").isPresent()) {
            Path csv = options.path("from-csv", null);
            if (!Files.isRegularFile(csv)) {
                throw new UsageException("--from-csv: " + csv + " is not a file");
            }
            report(DensityBench.readCsv(csv), csv, options.string("label", csv.getFileName().toString()), out);
            return 0;
        }
        long pid = Long.parseLong(options.requireString("pid"));
        List<Integer> checkpoints = Arrays.stream(options.string("tenants", "0,1000,5000,10000").split(","))
                .map(String::trim).map(Integer::parseInt).sorted().toList();
        Path key = Path.of(options.string("key", System.getProperty("corpora.dev.jwt.private.key", "platform-server/dev-jwt/private.pem")));
        if (!Files.isRegularFile(key)) {
            throw new UsageException("development key " + key + " not found; pass --key");
        }
        DensityBench bench = new DensityBench(URI.create(options.string("server", "http://localhost:9080/")), DevTokenMinter.fromPem(key),
                new ProcessResources(pid), options.string("prefix", "density-"), options.integer("clients", 4, 1, 64),
                Duration.ofSeconds(options.integer("steady-seconds", 10, 0, 3600)));
        out.printf(Locale.ROOT, "uptime: %s%n", Files.readString(Path.of("/proc/loadavg")).trim());
        List<DensityBench.Row> rows = bench.run(checkpoints, err);
        Path csv = options.path("out", Path.of("bench-results", "density.csv"));
        DensityBench.writeCsv(rows, csv);
        report(rows, csv, options.string("label", options.string("server", "http://localhost:9080/")), out);
        int histogram = options.integer("histogram", 0, 0, 1000);
        if (histogram > 0) {
            bench.process().histogram(histogram).forEach(out::println);
        }
        return 0;
    }

    /** A figure, or "–" where nothing was measured (-1). */
    private static String millis(double value, int decimals) {
        return value < 0 ? "–" : String.format(Locale.ROOT, "%." + decimals + "f", value);
    }

    /** Prints the table and writes the plot beside the CSV ({@code density.csv} → {@code density.png}). */
    private static void report(List<DensityBench.Row> rows, Path csv, String label, PrintStream out) throws java.io.IOException {
        out.println("| tenants | open files | threads | RSS MB | live heap MB | cold first query ms | warm query ms | steady p50 ms | server CPU ms per query |");
        out.println("|---|---|---|---|---|---|---|---|---|");
        for (DensityBench.Row r : rows) {
            out.printf(Locale.ROOT, "| %d | %d | %d | %.0f | %.1f | %s | %s | %s | %s |%n", r.tenants(), r.resources().openFiles(), r.resources().threads(),
                    r.rssMb(), r.liveHeapMb(), millis(r.coldQueryMs(), 1), millis(r.warmQueryMs(), 1), millis(r.steadyP50Ms(), 2),
                    millis(r.serverCpuMsPerQuery(), 2));
        }
        String name = csv.getFileName().toString();
        Path png = csv.resolveSibling((name.endsWith(".csv") ? name.substring(0, name.length() - 4) : name) + ".png");
        DensityPlot.write(rows, label, png);
        out.println("CSV: " + csv.toAbsolutePath());
        out.println("plot: " + png.toAbsolutePath());
    }
}
