package io.corpora.cli.bench;

import io.corpora.cli.eval.BeirDataset;
import io.corpora.spi.VectorMath;
import io.corpora.spi.embed.Embedder;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The bench's texts and vectors. Real: the first {@code passages} SciFact abstracts and {@code queries} SciFact queries,
 * embedded with the bundled model through the eval embedding cache (so a second run embeds nothing). Synthetic, and
 * said so in every report: a tenant's chunk {@code j} is real passage {@code a} plus a quarter of real passage
 * {@code b} plus Gaussian noise (σ = 0.02 per component), renormalised, with passage {@code a}'s text — vectors that
 * keep the real corpus's geometry (clusters, anisotropy) without embedding a million texts on two cores.
 */
final class BenchCorpus {

    static final double MIX = 0.25;
    static final double NOISE = 0.02;

    final List<String> texts;
    final List<float[]> vectors;
    final List<String> queryTexts;
    final List<float[]> queryVectors;

    BenchCorpus(List<String> texts, List<float[]> vectors, List<String> queryTexts, List<float[]> queryVectors) {
        this.texts = texts;
        this.vectors = vectors;
        this.queryTexts = queryTexts;
        this.queryVectors = queryVectors;
    }

    /** SciFact abstracts as the bench's passages: title, then the abstract, cut to ~1,000 characters (one chunk). */
    static List<String> passages(BeirDataset dataset, int limit) {
        List<String> texts = new ArrayList<>();
        dataset.forEachDocument(d -> {
            if (texts.size() < limit) {
                String text = (d.title() == null || d.title().isBlank() ? "" : d.title() + "\n") + d.text();
                texts.add(text.length() > 1000 ? text.substring(0, 1000) : text);
            }
        });
        return texts;
    }

    /** Embeds {@code texts} (the real passages every synthetic vector derives from) and the profile's queries. */
    static BenchCorpus embed(List<String> texts, BeirDataset dataset, Profile profile, Embedder cachedEmbedder, java.io.PrintStream err) {
        List<float[]> vectors = new ArrayList<>(texts.size());
        int batch = 64;
        long start = System.nanoTime();
        for (int from = 0; from < texts.size(); from += batch) {
            vectors.addAll(cachedEmbedder.embedDocuments(texts.subList(from, Math.min(texts.size(), from + batch))));
            if ((from / batch) % 2 == 1) {
                err.printf("bench: %d/%d passages embedded (or read from the cache), %.0f s%n", vectors.size(), texts.size(),
                        (System.nanoTime() - start) / 1e9);
            }
        }
        List<String> queryTexts = dataset.queries().stream().map(BeirDataset.Query::text).limit(profile.queries()).toList();
        List<float[]> queryVectors = queryTexts.stream().map(cachedEmbedder::embedQuery).toList();
        return new BenchCorpus(texts, vectors, queryTexts, queryVectors);
    }

    int passageOf(int tenant, int chunk) {
        return Math.floorMod(tenant * 7_919 + chunk * 31, texts.size());
    }

    String text(int tenant, int chunk) {
        return texts.get(passageOf(tenant, chunk));
    }

    /** The synthetic vector of a tenant's chunk: deterministic in (tenant, chunk). */
    float[] vector(int tenant, int chunk) {
        SplittableRandom random = new SplittableRandom(((long) tenant << 32) ^ chunk);
        float[] a = vectors.get(passageOf(tenant, chunk));
        float[] b = vectors.get(random.nextInt(vectors.size()));
        float[] v = new float[a.length];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) (a[i] + MIX * b[i] + NOISE * gaussian(random));
        }
        return VectorMath.l2Normalize(v);
    }

    /** A standard normal draw (Box-Muller). */
    static double gaussian(SplittableRandom random) {
        double u = 1.0 - random.nextDouble();
        double w = random.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * w);
    }

    static String describe() {
        return "real bge-small-en-v1.5 embeddings of SciFact abstracts and queries (cached); each chunk's vector is"
                + " real passage a + " + MIX + " x real passage b + N(0, " + NOISE + ") noise, renormalised (synthetic), with passage a's text";
    }
}
