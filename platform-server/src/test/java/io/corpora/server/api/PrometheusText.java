package io.corpora.server.api;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** The samples of a Prometheus text exposition, looked up by metric name and label fragments. */
record PrometheusText(List<String> samples) {

    static PrometheusText parse(String text) {
        List<String> samples = new ArrayList<>();
        text.lines().filter(line -> !line.isBlank() && !line.startsWith("#")).forEach(samples::add);
        return new PrometheusText(samples);
    }

    /** The value of the one sample of this metric whose labels contain every fragment (e.g. {@code tenant="acme"}). */
    double value(String metric, String... labelFragments) {
        List<String> matching = samples.stream().filter(s -> s.startsWith(metric + "{") || s.startsWith(metric + " "))
                .filter(s -> java.util.Arrays.stream(labelFragments).allMatch(s::contains)).toList();
        if (matching.size() != 1) {
            throw new AssertionError(matching.size() + " samples of " + metric + " with " + List.of(labelFragments) + ": " + matching);
        }
        String sample = matching.get(0);
        return Double.parseDouble(sample.substring(sample.lastIndexOf(' ') + 1));
    }

    /** Every sample mentioning the text, for assertion messages. */
    String about(String text) {
        return samples.stream().filter(s -> s.contains(text)).collect(Collectors.joining("\n"));
    }
}
