package io.corpora.loader.html;

import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.loader.DocumentLoader;
import io.corpora.spi.loader.LoadRequest;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * Measurement, run by hand (not a test): megabytes per second for a 1 MB page made of the handbook fixture's
 * main content repeated.
 * {@code mvn -q -o -f plugins/loader-html/pom.xml test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=io.corpora.loader.html.HtmlThroughput}
 */
public final class HtmlThroughput {

    private HtmlThroughput() {}

    public static void main(String[] args) throws IOException {
        String page;
        try (InputStream in = HtmlThroughput.class.getResourceAsStream("/fixtures/handbook-page.html")) {
            page = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String main = page.substring(page.indexOf("<main>") + 6, page.indexOf("</main>"));
        StringBuilder html = new StringBuilder("<html><head><title>Bench</title></head><body><main>");
        while (html.length() < 1024 * 1024) {
            html.append(main);
        }
        html.append("</main></body></html>");
        HtmlLoaderProvider provider = new HtmlLoaderProvider();
        DocumentLoader loader = provider.create(PluginContext.of(Path.of("target"), "bench"),
                PluginConfig.validate("html", provider.configOptions(), Map.of()));
        LoadRequest request = new LoadRequest(html.toString().getBytes(StandardCharsets.UTF_8), "text/html", null, "bench.html");
        for (int i = 0; i < 3; i++) {
            loader.load(request); // warm-up
        }
        int runs = 10;
        long start = System.nanoTime();
        for (int i = 0; i < runs; i++) {
            loader.load(request);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        double megabytes = request.bytes().length / 1048576.0;
        System.out.printf(Locale.ROOT, "html: %.1f MB page: %.1f MB/s, %.0f ms per document%n",
                megabytes, megabytes * runs / seconds, seconds * 1000 / runs);
    }
}
