package io.corpora.store.qdrant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * Collection names are derived, never taken from input: a validated prefix and a width. Qdrant's guidance is "a single
 * collection per embedding model with payload-based partitioning for different tenants"
 * (https://qdrant.tech/documentation/manage-data/multitenancy/), so the store keeps one per vector width.
 */
class CollectionNamesTest {

    @Test
    void theNameIsThePrefixAndTheWidth() {
        CollectionNames names = new CollectionNames("corpora");
        assertEquals("corpora_d384", names.forWidth(384));
        assertEquals(OptionalInt.of(384), names.widthOf("corpora_d384"));
        assertThrows(IllegalArgumentException.class, () -> names.forWidth(0));
        assertThrows(IllegalArgumentException.class, () -> names.forWidth(65_537));
    }

    @Test
    void hostilePrefixesAreRefused() {
        for (String prefix : List.of("", "Corpora", "../etc", "a/b", "a b", "1abc", "_x", "x".repeat(49), "naïve", "a\u0000")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new CollectionNames(prefix), prefix);
            assertTrue(e.getMessage().contains(CollectionNames.PREFIX.pattern()), e.getMessage());
        }
        new CollectionNames("x".repeat(48));
        new CollectionNames("team-a_store");
    }

    /** Only this store's own collections count: another prefix, another program's, or a malformed width are not its. */
    @Test
    void onlyOwnCollectionsAreRecognisedAndTheyListInWidthOrder() {
        CollectionNames names = new CollectionNames("corpora");
        for (String foreign : List.of("corpora", "corpora_d", "corpora_d0", "corpora_d012", "corpora_dx", "corpora_d384_extra",
                "corpora2_d384", "other_d384", "corpora_d999999", "xcorpora_d384")) {
            assertEquals(OptionalInt.empty(), names.widthOf(foreign), foreign);
        }
        assertEquals(List.of("corpora_d8", "corpora_d384", "corpora_d768"),
                names.owned(List.of("corpora_d768", "legacy", "corpora_d8", "corpora2_d8", "corpora_d384")));
        assertEquals(OptionalInt.of(384), new CollectionNames("a.b".replace(".", "-")).widthOf("a-b_d384"));
        assertEquals(OptionalInt.empty(), new CollectionNames("a-b").widthOf("aXb_d384"), "the prefix is matched literally");
    }
}
