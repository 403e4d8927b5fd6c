package io.corpora.cli.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the figures were measured on. */
final class Machine {

    private Machine() {}

    static String describe() {
        String cpu = "?";
        try {
            cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name")).findFirst()
                    .map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse("?");
        } catch (IOException | RuntimeException ignored) {
            // not Linux
        }
        return Runtime.getRuntime().availableProcessors() + " cores (" + cpu + "), max heap "
                + Runtime.getRuntime().maxMemory() / (1 << 20) + " MB, Java " + System.getProperty("java.version") + ", "
                + System.getProperty("os.name") + " " + System.getProperty("os.version");
    }

    /** The 1/5/15-minute load averages (the machine is shared: read every figure with them). */
    static String load() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException | RuntimeException e) {
            return String.format("%.2f", java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        }
    }

    /**
     * The machine's CPU time since boot, busy and idle, in clock ticks of all cores together ({@code /proc/stat}); NaN
     * where it cannot be read. Two readings tell how many cores were busy in between, whoever used them (a ratio: the
     * tick's length does not matter).
     */
    record CpuTimes(double busyTicks, double idleTicks) {

        static CpuTimes now() {
            try {
                String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
                double busy = 0;
                double idle = 0;
                for (int i = 1; i < Math.min(f.length, 9); i++) { // user nice system idle iowait irq softirq steal
                    double ticks = Double.parseDouble(f[i]);
                    if (i == 4 || i == 5) {
                        idle += ticks;
                    } else {
                        busy += ticks;
                    }
                }
                return new CpuTimes(busy, idle);
            } catch (IOException | RuntimeException e) {
                return new CpuTimes(Double.NaN, Double.NaN);
            }
        }

        /** Cores busy on average from {@code before} to this reading. */
        double coresBusySince(CpuTimes before) {
            double busy = busyTicks - before.busyTicks;
            double all = busy + idleTicks - before.idleTicks;
            return all > 0 ? busy / all * Runtime.getRuntime().availableProcessors() : Double.NaN;
        }
    }
}
