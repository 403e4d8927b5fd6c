package io.corpora.store.qdrant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.Chunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.testkit.FilterCorpus;
import io.qdrant.client.grpc.Common.Condition;
import io.qdrant.client.grpc.Common.FieldCondition;
import io.qdrant.client.grpc.Common.Filter;
import io.qdrant.client.grpc.Common.Match;
import io.qdrant.client.grpc.JsonWithInt.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every {@link MetadataFilter} rule translated to a Qdrant filter, checked two ways: the shape of what is sent (each
 * rule's Qdrant condition, cited from https://qdrant.tech/documentation/search/filtering/), and its meaning — the
 * translation evaluated under Qdrant's documented semantics ({@link DocumentedFilterSemantics}) over the payloads the
 * store writes must select exactly the chunks {@link MetadataFilter#matches} selects (a superset, re-checked by the
 * store, where a string range is involved), over the test kit's generated corpus and filters.
 */
class FilterTranslatorTest {

    private static final Namespace ACME = Namespace.of("acme");
    private static final Namespace ACME_LEGAL = Namespace.of("acme", "legal");

    private static Filter userPart(MetadataFilter filter) {
        FilterTranslator.Translation t = FilterTranslator.translate(ACME, filter, null);
        List<Condition> must = t.filter().getMustList();
        assertEquals(3, must.size(), "namespace (2) + the filter: " + t.filter());
        return Filter.newBuilder().addMust(must.get(2)).build();
    }

    private static FieldCondition onlyField(MetadataFilter filter) {
        Condition c = userPart(filter).getMust(0);
        assertEquals(Condition.ConditionOneOfCase.FIELD, c.getConditionOneOfCase(), c.toString());
        return c.getField();
    }

    // ------------------------------------------------------------------------------------------------ the namespace

    @Test
    void theNamespaceIsAlwaysInMust() {
        for (MetadataFilter filter : List.of(MetadataFilter.all(), MetadataFilter.eq("k", "v"),
                MetadataFilter.not(MetadataFilter.eq("k", "v")), MetadataFilter.anyOf("k", List.of("a", "b")))) {
            Filter sent = FilterTranslator.translate(ACME_LEGAL, filter, "model.8.abc").filter();
            assertEquals(0, sent.getShouldCount(), "nothing may be OR-ed beside the namespace: " + sent);
            assertEquals(0, sent.getMustNotCount(), "nothing may be negated beside the namespace: " + sent);
            assertEquals(keyword("tenant", "acme"), sent.getMust(0));
            assertEquals(keyword("partition", "legal"), sent.getMust(1));
            assertEquals(keyword("embedder", "model.8.abc"), sent.getMust(2), "the fingerprint is a must too");
        }
        Filter defaultPartition = FilterTranslator.translate(ACME, MetadataFilter.all(), null).filter();
        assertEquals(List.of(keyword("tenant", "acme"), keyword("partition", "_default")), defaultPartition.getMustList(),
                "the tenant's own partition is stored as _default, and match-all adds nothing");
        assertEquals(List.of(keyword("tenant", "acme")), FilterTranslator.tenant("acme").getMustList(), "a purge: every partition");
        assertEquals(keyword("document_id", "d-1"), FilterTranslator.document(ACME, "d-1").getMust(2));
    }

    private static Condition keyword(String key, String value) {
        return Condition.newBuilder().setField(FieldCondition.newBuilder().setKey(key)
                .setMatch(Match.newBuilder().setKeyword(value))).build();
    }

    // ------------------------------------------------------------------------------------------------ each rule

    /** Match "can apply to keyword, integer and bool payloads"; a metadata key is the quoted segment meta."key". */
    @Test
    void eqOfAStringOrBooleanIsAMatchOnTheQuotedMetadataPath() {
        FieldCondition string = onlyField(MetadataFilter.eq("lang.code", "pt"));
        assertEquals("meta.\"lang.code\"", string.getKey(), "a dotted key is one quoted segment, not a nested path");
        assertEquals(List.of("meta", "lang.code"), DocumentedFilterSemantics.segments(string.getKey()));
        assertEquals("pt", string.getMatch().getKeyword());
        FieldCondition bool = onlyField(MetadataFilter.eq("draft", true));
        assertEquals(Match.MatchValueCase.BOOLEAN, bool.getMatch().getMatchValueCase());
        assertTrue(bool.getMatch().getBoolean());
    }

    /** Match compares integers only; Eq compares numbers by value, so 1 and 1.0 both become the range [v, v]. */
    @Test
    void eqOfANumberIsAClosedRangeSoIntegersAndDoublesMeet() {
        for (Object one : List.of(1, 1L, 1.0, 1.0f)) {
            FieldCondition c = onlyField(MetadataFilter.eq("v", one));
            assertTrue(c.hasRange(), c.toString());
            assertEquals(1.0, c.getRange().getGte());
            assertEquals(1.0, c.getRange().getLte());
            assertFalse(c.getRange().hasGt() || c.getRange().hasLt());
        }
    }

    /** Match any: "the condition will be satisfied if the stored value is either black or yellow"; arrays need one element. */
    @Test
    void anyOfStringsIsOneMatchAnyAndMixedValuesAreOredInShould() {
        FieldCondition strings = onlyField(MetadataFilter.anyOf("tags", List.of("red", "blue", "red")));
        assertEquals(List.of("red", "blue"), strings.getMatch().getKeywords().getStringsList());
        Condition mixed = userPart(MetadataFilter.anyOf("v", List.of("a", 2, true))).getMust(0);
        Filter alternatives = mixed.getFilter();
        assertEquals(3, alternatives.getShouldCount(), mixed.toString());
        assertEquals("a", alternatives.getShould(0).getField().getMatch().getKeyword());
        assertEquals(2.0, alternatives.getShould(1).getField().getRange().getGte());
        assertTrue(alternatives.getShould(2).getField().getMatch().getBoolean());
    }

    @Test
    void anEmptyAnyOfMatchesNothingAndQdrantIsNotAsked() {
        FilterTranslator.Translation empty = FilterTranslator.translate(ACME, MetadataFilter.anyOf("tags", List.of()), null);
        assertTrue(empty.matchesNothing());
        assertTrue(FilterTranslator.translate(ACME, MetadataFilter.and(MetadataFilter.eq("a", "b"), MetadataFilter.anyOf("t", List.of())), null)
                .matchesNothing(), "an empty AnyOf inside And empties the And");
        FilterTranslator.Translation negated = FilterTranslator.translate(ACME, MetadataFilter.not(MetadataFilter.anyOf("tags", List.of())), null);
        assertFalse(negated.matchesNothing());
        assertEquals(2, negated.filter().getMustCount(), "NOT(nothing) is everything: the namespace alone");
    }

    /**
     * Is empty "will match all records where the field either does not exist, or has null or [] value" — but Exists counts
     * an empty list as present, so Exists is a match on the store's meta_keys list instead.
     */
    @Test
    void existsIsAMatchOnMetaKeysBecauseIsEmptyTreatsAnEmptyListAsMissing() {
        FieldCondition exists = onlyField(MetadataFilter.exists("empty"));
        assertEquals("meta_keys", exists.getKey());
        assertEquals("empty", exists.getMatch().getKeyword());
        Map<String, Value> payload = payload(Map.of("empty", List.of()));
        assertTrue(DocumentedFilterSemantics.isEmpty(DocumentedFilterSemantics.values(payload, ChunkPayload.metadataPath("empty"))),
                "what must_not is_empty would have said: absent");
        assertTrue(DocumentedFilterSemantics.matches(userPart(MetadataFilter.exists("empty")), payload), "what Exists says: present");
    }

    /**
     * Match except: "If the stored value is an array, it should have at least one value not matching any of the given
     * values" — on ["a", "b"] except ["a"] holds, yet Not(AnyOf ["a"]) must not; so Not is must_not around the condition.
     */
    @Test
    void notIsMustNotAndNeverMatchExcept() {
        Condition not = userPart(MetadataFilter.not(MetadataFilter.anyOf("tags", List.of("a")))).getMust(0);
        assertEquals(1, not.getFilter().getMustNotCount(), not.toString());
        Match negated = not.getFilter().getMustNot(0).getField().getMatch();
        assertEquals(Match.MatchValueCase.KEYWORD, negated.getMatchValueCase(), "a plain match under must_not, not except: " + negated);
        assertEquals("a", negated.getKeyword());
        Map<String, Value> both = payload(Map.of("tags", List.of("a", "b")));
        Match except = Match.newBuilder().setExceptKeywords(io.qdrant.client.grpc.Common.RepeatedStrings.newBuilder().addStrings("a")).build();
        assertTrue(DocumentedFilterSemantics.match(except, DocumentedFilterSemantics.values(both, ChunkPayload.metadataPath("tags"))),
                "except would have matched ['a','b']");
        assertFalse(MetadataFilter.not(MetadataFilter.anyOf("tags", List.of("a"))).matches(Map.of("tags", List.of("a", "b"))));
        assertFalse(DocumentedFilterSemantics.matches(userPart(MetadataFilter.not(MetadataFilter.anyOf("tags", List.of("a")))), both));
        Map<String, Value> missing = payload(Map.of());
        assertFalse(DocumentedFilterSemantics.match(except, DocumentedFilterSemantics.values(missing, ChunkPayload.metadataPath("tags"))),
                "and except never holds for a missing key, where Not does");
        assertTrue(DocumentedFilterSemantics.matches(userPart(MetadataFilter.not(MetadataFilter.anyOf("tags", List.of("a")))), missing));
    }

    /** Range: gt, gte, lt, lte, "applied to float and integer payloads"; an open side is simply absent. */
    @Test
    void numericRangesKeepEachBoundAndItsInclusiveness() {
        FieldCondition closedOpen = onlyField(new MetadataFilter.Range("year", 2020, true, 2022, false));
        assertEquals(2020.0, closedOpen.getRange().getGte());
        assertEquals(2022.0, closedOpen.getRange().getLt());
        assertFalse(closedOpen.getRange().hasGt() || closedOpen.getRange().hasLte());
        FieldCondition openLower = onlyField(new MetadataFilter.Range("price", -5.5, false, null, false));
        assertEquals(-5.5, openLower.getRange().getGt());
        assertFalse(openLower.getRange().hasLt() || openLower.getRange().hasLte() || openLower.getRange().hasGte());
        FieldCondition upper = onlyField(new MetadataFilter.Range("price", null, false, 0, true));
        assertEquals(0.0, upper.getRange().getLte());
    }

    @Test
    void theKeysOfAnAndAreAllMust() {
        Condition and = userPart(MetadataFilter.fromMap(Map.of("a", "x", "b", List.of("y", "z")))).getMust(0);
        assertEquals(2, and.getFilter().getMustCount(), and.toString());
    }

    /** Qdrant has no lexicographic range (numeric and RFC 3339 datetime only): the store over-approximates and re-checks. */
    @Test
    void aStringRangeIsNotExactAndItsApproximationNeverDropsAMatch() {
        MetadataFilter range = new MetadataFilter.Range("published", "2024-01-01", true, null, false);
        FilterTranslator.Translation positive = FilterTranslator.translate(ACME, range, null);
        assertFalse(positive.exact());
        assertEquals(2, positive.filter().getMustCount(), "in positive position the range becomes true: the namespace alone");
        FilterTranslator.Translation underNot = FilterTranslator.translate(ACME,
                MetadataFilter.and(MetadataFilter.eq("category", "alpha"), MetadataFilter.not(range)), null);
        assertFalse(underNot.exact());
        assertFalse(underNot.matchesNothing(), "NOT(range) becomes true, not false: the superset keeps every match");
        assertTrue(FilterTranslator.translate(ACME, MetadataFilter.eq("category", "alpha"), null).exact());
    }

    // ------------------------------------------------------------------------------------------------ meaning

    /** The test kit's 300 generated chunks and ~150 generated filters: Qdrant's reading of each translation vs the oracle. */
    @Test
    void everyGeneratedFilterSelectsWhatTheOracleSelects() {
        FilterCorpus corpus = new FilterCorpus(42);
        List<Map<String, Object>> metadata = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            metadata.add(corpus.nextMetadata());
        }
        List<Map<String, Value>> payloads = metadata.stream().map(FilterTranslatorTest::payload).toList();
        List<MetadataFilter> filters = new ArrayList<>(new FilterCorpus(43).filters(150));
        filters.add(MetadataFilter.not(MetadataFilter.exists("price")));
        filters.add(MetadataFilter.not(MetadataFilter.not(new MetadataFilter.Range("published", "2024-01-01", false, null, false))));
        int exact = 0;
        int approximated = 0;
        for (MetadataFilter filter : filters) {
            FilterTranslator.Translation t = FilterTranslator.translate(ACME, filter, null);
            for (int i = 0; i < payloads.size(); i++) {
                boolean oracle = filter.matches(metadata.get(i));
                boolean qdrant = !t.matchesNothing() && DocumentedFilterSemantics.matches(t.filter(), payloads.get(i));
                if (t.exact()) {
                    assertEquals(oracle, qdrant, filter.toMap() + " on " + metadata.get(i));
                } else if (oracle) {
                    assertTrue(qdrant, "the superset of " + filter.toMap() + " lost " + metadata.get(i));
                }
            }
            if (t.exact()) {
                exact++;
            } else {
                approximated++;
            }
        }
        assertTrue(exact > 100 && approximated > 5, "both kinds were exercised: exact " + exact + ", approximated " + approximated);
    }

    /** The store's own namespace conditions keep another tenant's and another partition's chunks out. */
    @Test
    void anotherNamespacesPayloadNeverMatches() {
        Chunk chunk = new Chunk("d#0", "d", 0, "t", List.of(), Map.of("k", "v"));
        Filter filter = FilterTranslator.translate(ACME, MetadataFilter.eq("k", "v"), null).filter();
        assertTrue(DocumentedFilterSemantics.matches(filter, ChunkPayload.encode(ACME, chunk)));
        assertFalse(DocumentedFilterSemantics.matches(filter, ChunkPayload.encode(ACME_LEGAL, chunk)));
        assertFalse(DocumentedFilterSemantics.matches(filter, ChunkPayload.encode(Namespace.of("globex"), chunk)));
        assertFalse(DocumentedFilterSemantics.matches(FilterTranslator.namespace(ACME_LEGAL), ChunkPayload.encode(ACME, chunk)));
    }

    private static Map<String, Value> payload(Map<String, ?> metadata) {
        return ChunkPayload.encode(ACME, new Chunk("c#0", "c", 0, "text", List.of(), Map.copyOf(metadata)));
    }
}
