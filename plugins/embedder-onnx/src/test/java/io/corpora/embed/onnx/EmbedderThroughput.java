package io.corpora.embed.onnx;

import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.embed.Embedder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Measurement, not a test: sentences/s and 200-word passages/s with workers=1 and workers=2 in the same JVM, so the
 * ratio is not skewed by a different machine load between runs. Texts are synthetic (seeded), so runs compare.
 * Usage: {@code java -cp ... io.corpora.embed.onnx.EmbedderThroughput [sentences] [passages] [rounds]}.
 */
public final class EmbedderThroughput {

    private static final String[] WORDS = ("the of and to in a is that for it as was with be by on not he this are or his from at "
            + "which but have an they you were her she there been one all we their has would when if so no will can more about "
            + "patients cells protein expression increased reduced risk treatment study results analysis associated clinical "
            + "gene mice tumor response levels cancer effect activity significant disease patients therapy receptor blood "
            + "human model data group function role mechanism pathway trial dose years women men children infection virus "
            + "immune signaling brain heart liver kidney muscle bone insulin glucose cholesterol mortality survival incidence "
            + "cohort randomized controlled population exposure factor marker inhibitor mutation variant sequencing").split(" ");

    public static void main(String[] args) throws Exception {
        int sentences = args.length > 0 ? Integer.parseInt(args[0]) : 400;
        int passages = args.length > 1 ? Integer.parseInt(args[1]) : 60;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        Random random = new Random(42);
        List<String> sentenceTexts = texts(random, sentences, 12, 20);
        List<String> passageTexts = texts(random, passages, 200, 200);
        System.out.printf("java %s (%s), %d cores; %d sentences of 12-20 words, %d passages of 200 words%n",
                System.getProperty("java.version"), System.getProperty("java.vm.name"), Runtime.getRuntime().availableProcessors(),
                sentences, passages);
        Path dir = Files.createTempDirectory("embedder-throughput");
        System.out.println("load average at start: " + loadAverage());
        // Both configurations stay loaded and alternate within each round, so a change in machine load hits both.
        try (Embedder one = create(dir, 1); Embedder two = create(dir, 2)) {
            one.embedDocuments(sentenceTexts.subList(0, Math.min(40, sentences))); // JIT and allocator warm-up
            two.embedDocuments(sentenceTexts.subList(0, Math.min(40, sentences)));
            double[][] sentenceRates = new double[2][rounds];
            double[][] passageRates = new double[2][rounds];
            for (int round = 0; round < rounds; round++) {
                Embedder[] order = round % 2 == 0 ? new Embedder[] {one, two} : new Embedder[] {two, one};
                for (Embedder embedder : order) {
                    int index = embedder == one ? 0 : 1;
                    sentenceRates[index][round] = rate(embedder, sentenceTexts);
                    passageRates[index][round] = rate(embedder, passageTexts);
                    System.out.printf("round %d workers=%d: %.1f sentences/s, %.1f passages/s%n", round + 1, index + 1,
                            sentenceRates[index][round], passageRates[index][round]);
                }
            }
            double s1 = median(sentenceRates[0]);
            double s2 = median(sentenceRates[1]);
            double p1 = median(passageRates[0]);
            double p2 = median(passageRates[1]);
            System.out.printf("RESULT java=%s medians of %d rounds | workers=1: %.1f sentences/s, %.1f passages/s | workers=2: %.1f"
                            + " sentences/s, %.1f passages/s | workers=2 / workers=1: %.2fx sentences, %.2fx passages%n",
                    System.getProperty("java.version"), rounds, s1, p1, s2, p2, s2 / s1, p2 / p1);
        }
        System.out.println("load average at end: " + loadAverage());
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }

    private static Embedder create(Path dir, int workers) {
        OnnxEmbedderProvider provider = new OnnxEmbedderProvider();
        PluginConfig config = PluginConfig.validate(provider.name(), provider.configOptions(), Map.of("workers", String.valueOf(workers)));
        return provider.create(PluginContext.of(dir, "embedder-throughput"), config);
    }

    private static double rate(Embedder embedder, List<String> texts) {
        long start = System.nanoTime();
        embedder.embedDocuments(texts);
        return texts.size() / ((System.nanoTime() - start) / 1e9);
    }

    private static List<String> texts(Random random, int count, int minWords, int maxWords) {
        List<String> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int words = minWords + random.nextInt(maxWords - minWords + 1);
            StringBuilder text = new StringBuilder();
            for (int w = 0; w < words; w++) {
                text.append(w == 0 ? "" : " ").append(WORDS[random.nextInt(WORDS.length)]);
            }
            out.add(text.append('.').toString());
        }
        return out;
    }
}
