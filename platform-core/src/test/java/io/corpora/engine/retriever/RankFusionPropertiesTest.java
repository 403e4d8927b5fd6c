package io.corpora.engine.retriever;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.Passage;
import io.corpora.spi.RetrieveOptions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Order invariants of the hybrid retriever's reciprocal rank fusion over arbitrary rankings. */
class RankFusionPropertiesTest {

    @Provide
    Arbitrary<List<List<String>>> rankings() {
        Arbitrary<List<String>> ranking = Arbitraries.strings().withCharRange('a', 'p').ofLength(1).list().ofMaxSize(12)
                .map(ids -> new ArrayList<>(new LinkedHashSet<>(ids)));
        return ranking.list().ofMinSize(1).ofMaxSize(4);
    }

    private static RetrievalResult fuse(List<List<String>> rankings) {
        List<HybridRetriever.Leg> legs = new ArrayList<>();
        for (int i = 0; i < rankings.size(); i++) {
            legs.add(new HybridRetriever.Leg("leg" + i, FixedRetriever.ranking("leg" + i, rankings.get(i).toArray(String[]::new)), 1, 50));
        }
        return new HybridRetriever(legs).retrieve("q", RetrieveOptions.topK(100));
    }

    @Property(tries = 300)
    void outputIsTheDedupedUnionInScoreContractOrder(@ForAll("rankings") List<List<String>> rankings) {
        RetrievalResult result = fuse(rankings);
        Set<String> union = new HashSet<>();
        rankings.forEach(union::addAll);
        assertEquals(union, new HashSet<>(result.ids()));
        assertEquals(union.size(), result.ids().size(), "each id once");
        assertTrue(Passages.inRankOrder(result.passages()), "descending scores, ties by id");
        result.passages().forEach(p -> assertTrue(Double.isFinite(p.score()) && p.score() > 0));
    }

    @Property(tries = 300)
    void anIdFirstInEveryRankingIsFirst(@ForAll("rankings") List<List<String>> rankings) {
        List<List<String>> withLeader = new ArrayList<>();
        for (List<String> r : rankings) {
            List<String> copy = new ArrayList<>(r);
            copy.remove("z");
            copy.add(0, "z");
            withLeader.add(copy);
        }
        assertEquals("z", fuse(withLeader).ids().get(0));
    }

    @Property(tries = 300)
    void promotingAnIdInOneRankingNeverLowersItsFusedScoreOrRank(@ForAll("rankings") List<List<String>> rankings) {
        List<String> first = rankings.get(0);
        if (first.size() < 2) {
            return;
        }
        String promoted = first.get(first.size() - 1);
        RetrievalResult before = fuse(rankings);
        List<List<String>> changed = new ArrayList<>(rankings);
        List<String> moved = new ArrayList<>(first);
        moved.remove(promoted);
        moved.add(0, promoted);
        changed.set(0, moved);
        RetrievalResult after = fuse(changed);
        assertTrue(score(after, promoted) > score(before, promoted));
        assertTrue(after.ids().indexOf(promoted) <= before.ids().indexOf(promoted));
    }

    @Property(tries = 200)
    void legOrderDoesNotChangeTheResult(@ForAll("rankings") List<List<String>> rankings) {
        List<List<String>> reversed = new ArrayList<>(rankings);
        java.util.Collections.reverse(reversed);
        assertEquals(fuse(rankings).ids(), fuse(reversed).ids());
    }

    private static double score(RetrievalResult result, String id) {
        return result.passages().stream().filter(p -> p.id().equals(id)).mapToDouble(Passage::score).findFirst().orElseThrow();
    }
}
