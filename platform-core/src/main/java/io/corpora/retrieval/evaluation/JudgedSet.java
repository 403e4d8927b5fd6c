package io.corpora.retrieval.evaluation;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Judged queries of one tenant: each query's text and its graded relevance per document id (grade &gt; 0 =
 * relevant; unjudged documents count as not relevant, as in {@code trec_eval}). Only queries with at least one
 * judgement are kept, like BEIR. Bounded so an evaluation stays a bounded job.
 */
public record JudgedSet(List<JudgedQuery> queries) {

    public static final int MAX_QUERIES = 2_000;
    public static final int MAX_JUDGEMENTS = 200_000;
    public static final int MAX_GRADE = 100;

    /** One judged query. */
    public record JudgedQuery(String id, String text, Map<String, Integer> grades) {
        public JudgedQuery {
            Objects.requireNonNull(id, "id");
            if (text == null || text.isBlank()) {
                throw new IllegalArgumentException("query '" + id + "' has no text");
            }
            grades = Map.copyOf(grades);
        }
    }

    public JudgedSet {
        queries = List.copyOf(queries);
        if (queries.isEmpty()) {
            throw new IllegalArgumentException("the judged set has no query with a judgement");
        }
        if (queries.size() > MAX_QUERIES) {
            throw new IllegalArgumentException("the judged set has " + queries.size() + " queries; at most " + MAX_QUERIES);
        }
    }

    /**
     * Queries (id → text) joined with qrels in BEIR TSV ({@code query-id corpus-id score}, an optional header) or
     * TREC form ({@code query-id iteration doc-id relevance}), whitespace- or tab-separated. A problem is an
     * {@link IllegalArgumentException} naming the line.
     */
    public static JudgedSet of(Map<String, String> queries, String qrels) {
        return of(queries, parseQrels(qrels));
    }

    /**
     * Queries (id → text) joined with graded judgements (query id → document id → grade, 0..{@value #MAX_GRADE});
     * the same bounds as the text form.
     */
    public static JudgedSet of(Map<String, String> queries, Map<String, Map<String, Integer>> grades) {
        Objects.requireNonNull(queries, "queries");
        Objects.requireNonNull(grades, "grades");
        long judgements = 0;
        for (Map.Entry<String, Map<String, Integer>> q : grades.entrySet()) {
            if (q.getValue() == null) {
                throw new IllegalArgumentException("qrels of query '" + q.getKey() + "' must be an object of document id to grade");
            }
            for (Map.Entry<String, Integer> d : q.getValue().entrySet()) {
                Integer g = d.getValue();
                if (g == null || g < 0 || g > MAX_GRADE) {
                    throw new IllegalArgumentException("qrels: grade of document '" + d.getKey() + "' for query '" + q.getKey()
                            + "' must be an integer in 0.." + MAX_GRADE + ", got " + g);
                }
            }
            judgements += q.getValue().size();
        }
        if (judgements > MAX_JUDGEMENTS) {
            throw new IllegalArgumentException("qrels hold " + judgements + " judgements; at most " + MAX_JUDGEMENTS);
        }
        List<JudgedQuery> judged = new ArrayList<>();
        for (Map.Entry<String, String> q : queries.entrySet()) {
            Map<String, Integer> g = grades.get(q.getKey());
            if (g != null) {
                judged.add(new JudgedQuery(q.getKey(), q.getValue(), g));
            }
        }
        for (String qid : grades.keySet()) {
            if (!queries.containsKey(qid)) {
                throw new IllegalArgumentException("qrels judge query '" + qid + "', which the queries do not contain");
            }
        }
        return new JudgedSet(judged);
    }

    static Map<String, Map<String, Integer>> parseQrels(String qrels) {
        Objects.requireNonNull(qrels, "qrels");
        Map<String, Map<String, Integer>> out = new LinkedHashMap<>();
        String[] lines = qrels.split("\r?\n");
        int judgements = 0;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\\s+");
            if (i == 0 && f.length == 3 && !isInteger(f[2])) {
                continue; // the BEIR header: query-id corpus-id score
            }
            if (f.length != 3 && f.length != 4) {
                throw new IllegalArgumentException("qrels line " + (i + 1) + ": expected 'query-id doc-id grade' (BEIR) or "
                        + "'query-id 0 doc-id grade' (TREC), got " + f.length + " fields");
            }
            String grade = f[f.length - 1];
            if (!isInteger(grade)) {
                throw new IllegalArgumentException("qrels line " + (i + 1) + ": grade '" + grade + "' is not an integer");
            }
            int g = Integer.parseInt(grade);
            if (g < 0 || g > MAX_GRADE) {
                throw new IllegalArgumentException("qrels line " + (i + 1) + ": grade " + g + " is outside 0.." + MAX_GRADE);
            }
            String doc = f.length == 3 ? f[1] : f[2];
            if (out.computeIfAbsent(f[0], k -> new LinkedHashMap<>()).put(doc, g) != null) {
                throw new IllegalArgumentException("qrels line " + (i + 1) + ": query '" + f[0] + "' judges document '" + doc + "' twice");
            }
            if (++judgements > MAX_JUDGEMENTS) {
                throw new IllegalArgumentException("qrels hold more than " + MAX_JUDGEMENTS + " judgements");
            }
        }
        return out;
    }

    private static boolean isInteger(String s) {
        return s.matches("-?\\d{1,9}");
    }

    /**
     * A digest of the queries' ids and texts and their grades, in id order: two runs on equal fingerprints scored the
     * same judged set, whatever order it was sent in (what makes runs comparable over time).
     */
    public String fingerprint() {
        java.security.MessageDigest sha;
        try {
            sha = java.security.MessageDigest.getInstance("SHA-256");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        queries.stream().sorted(java.util.Comparator.comparing(JudgedQuery::id)).forEach(q -> {
            StringBuilder line = new StringBuilder(q.id()).append('\u0000').append(q.text());
            new java.util.TreeMap<>(q.grades()).forEach((document, grade) -> line.append('\u0000').append(document).append('=').append(grade));
            sha.update(line.append('\n').toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        });
        return java.util.HexFormat.of().formatHex(sha.digest());
    }
}
