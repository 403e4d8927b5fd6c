package io.corpora.testkit;

import io.corpora.spi.MetadataFilter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A generated metadata corpus and a generated set of filters over it, so a store's filter compilation can
 * be compared with {@link MetadataFilter#matches} (the oracle) on every rule: scalar and multi-valued
 * fields, numbers stored as int, long and double, booleans, ISO-8601 date strings, and missing keys.
 */
public final class FilterCorpus {

    static final List<String> CATEGORIES = List.of("alpha", "beta", "gamma", "delta");
    static final List<String> TAGS = List.of("red", "green", "blue", "cyan", "plum");
    static final List<String> DATES = List.of("2023-01-15", "2023-06-30", "2023-12-31", "2024-01-01", "2024-02-29",
            "2024-07-04T10:15:30Z", "2025-03-01");

    private final Random random;

    public FilterCorpus(long seed) {
        this.random = new Random(seed);
    }

    /** Metadata for one chunk; each key is missing with some probability. */
    public Map<String, Object> nextMetadata() {
        Map<String, Object> m = new LinkedHashMap<>();
        if (random.nextInt(10) < 8) {
            m.put("category", pick(CATEGORIES));
        }
        if (random.nextInt(10) < 8) {
            int n = random.nextInt(4); // 0..3 values; an empty list is a present-but-empty multi-valued field
            List<Object> tags = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                tags.add(pick(TAGS));
            }
            m.put("tags", tags);
        }
        if (random.nextInt(10) < 8) {
            int year = 2018 + random.nextInt(8);
            // the same logical number arrives as different Java types; filters compare by value
            m.put("year", switch (random.nextInt(3)) {
                case 0 -> year;
                case 1 -> (long) year;
                default -> (double) year;
            });
        }
        if (random.nextInt(10) < 7) {
            m.put("price", Math.round(random.nextDouble() * 2000) / 10.0 - 20.0);
        }
        if (random.nextInt(10) < 7) {
            m.put("published", pick(DATES));
        }
        if (random.nextInt(10) < 7) {
            m.put("draft", random.nextBoolean());
        }
        if (random.nextInt(10) < 5) {
            List<Object> scores = new ArrayList<>();
            for (int i = 0, n = 1 + random.nextInt(3); i < n; i++) {
                scores.add(random.nextInt(10));
            }
            m.put("ratings", scores);
        }
        return m;
    }

    /** A mix of hand-picked edge cases and random filters over the corpus keys. */
    public List<MetadataFilter> filters(int randomCount) {
        List<MetadataFilter> filters = new ArrayList<>(List.of(
                MetadataFilter.all(),
                MetadataFilter.eq("category", "alpha"),
                MetadataFilter.eq("tags", "red"),
                MetadataFilter.eq("year", 2020),
                MetadataFilter.eq("year", 2020.0),
                MetadataFilter.eq("year", 2020L),
                MetadataFilter.eq("year", "2020"),
                MetadataFilter.eq("draft", true),
                MetadataFilter.eq("draft", "true"),
                MetadataFilter.eq("ratings", 3),
                MetadataFilter.eq("nosuchkey", "x"),
                MetadataFilter.anyOf("category", List.of()),
                MetadataFilter.anyOf("tags", List.of()),
                MetadataFilter.not(MetadataFilter.anyOf("tags", List.of())),
                MetadataFilter.anyOf("tags", List.of("red", "plum")),
                MetadataFilter.anyOf("year", List.of(2019, 2021.0, "2022")),
                MetadataFilter.exists("tags"),
                MetadataFilter.exists("nosuchkey"),
                MetadataFilter.not(MetadataFilter.exists("category")),
                MetadataFilter.not(MetadataFilter.eq("category", "beta")),
                MetadataFilter.not(MetadataFilter.eq("tags", "green")),
                new MetadataFilter.Range("year", 2020, true, 2022, false),
                new MetadataFilter.Range("year", 2020.5, false, null, false),
                new MetadataFilter.Range("price", null, false, 0, true),
                new MetadataFilter.Range("price", -5.5, true, 55.5, true),
                new MetadataFilter.Range("ratings", 7, true, null, false),
                new MetadataFilter.Range("published", "2024-01-01", true, "2024-12-31", true),
                new MetadataFilter.Range("published", "2024-01-01", false, null, false),
                new MetadataFilter.Range("published", null, false, "2023-12-31", true),
                new MetadataFilter.Range("category", 1, true, null, false),
                new MetadataFilter.Range("year", "2020", true, null, false),
                MetadataFilter.and(MetadataFilter.eq("category", "alpha"), MetadataFilter.eq("tags", "red")),
                MetadataFilter.and(MetadataFilter.anyOf("category", List.of("alpha", "beta")),
                        new MetadataFilter.Range("year", 2021, true, null, false), MetadataFilter.not(MetadataFilter.eq("draft", true))),
                MetadataFilter.not(MetadataFilter.and(MetadataFilter.eq("category", "gamma"), MetadataFilter.exists("price")))));
        for (int i = 0; i < randomCount; i++) {
            filters.add(randomFilter(2));
        }
        return filters;
    }

    private MetadataFilter randomFilter(int depth) {
        int kind = random.nextInt(depth > 0 ? 8 : 6);
        return switch (kind) {
            case 0 -> MetadataFilter.eq(pick(List.of("category", "tags")), pick(random.nextBoolean() ? CATEGORIES : TAGS));
            case 1 -> MetadataFilter.eq(pick(List.of("year", "ratings")), random.nextBoolean() ? 2018 + random.nextInt(8) : random.nextInt(10));
            case 2 -> {
                List<Object> values = new ArrayList<>();
                for (int i = 0, n = random.nextInt(4); i < n; i++) {
                    values.add(pick(random.nextBoolean() ? CATEGORIES : TAGS));
                }
                yield MetadataFilter.anyOf(pick(List.of("category", "tags")), values);
            }
            case 3 -> MetadataFilter.exists(pick(List.of("category", "tags", "year", "price", "published", "draft", "ratings")));
            case 4 -> {
                String key = pick(List.of("published", "price", "year", "ratings"));
                Object lo = random.nextInt(3) == 0 ? null : randomBound(key);
                Object hi = lo != null && random.nextInt(3) == 0 ? null : randomBound(key);
                yield new MetadataFilter.Range(key, lo, random.nextBoolean(), hi, random.nextBoolean());
            }
            case 5 -> MetadataFilter.eq("draft", random.nextBoolean());
            case 6 -> MetadataFilter.not(randomFilter(depth - 1));
            default -> MetadataFilter.and(randomFilter(depth - 1), randomFilter(depth - 1));
        };
    }

    private Object randomBound(String key) {
        return switch (key) {
            case "published" -> pick(DATES);
            case "year" -> random.nextBoolean() ? (Object) (2017 + random.nextInt(10)) : (Object) (2017 + random.nextInt(100) / 10.0);
            case "ratings" -> random.nextInt(11);
            default -> random.nextInt(2100) / 10.0 - 25;
        };
    }

    private <T> T pick(List<T> values) {
        return values.get(random.nextInt(values.size()));
    }
}
