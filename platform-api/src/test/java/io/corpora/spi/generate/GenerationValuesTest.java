package io.corpora.spi.generate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The generation value types refuse what no backend accepts and cannot be changed after construction. */
class GenerationValuesTest {

    private static final ChatMessage QUESTION = ChatMessage.user("What is the lodging policy?");

    @Test
    void aRequestNeedsMessagesAndSaneParameters() {
        assertEquals("a generation request needs at least one message",
                assertThrows(IllegalArgumentException.class, () -> GenerationRequest.of(List.of())).getMessage());
        GenerationRequest request = GenerationRequest.of(QUESTION);
        assertEquals("maxTokens must be at least 1, got 0",
                assertThrows(IllegalArgumentException.class, () -> request.withMaxTokens(0)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> request.withTemperature(-0.1));
        assertThrows(IllegalArgumentException.class, () -> request.withTemperature(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> request.withTemperature(Double.POSITIVE_INFINITY));
        assertEquals("a stop sequence must not be empty",
                assertThrows(IllegalArgumentException.class, () -> request.withStop(List.of("END", ""))).getMessage());
        assertThrows(NullPointerException.class, () -> GenerationRequest.of(QUESTION, null));
        assertThrows(NullPointerException.class, () -> ChatMessage.user(null));
    }

    @Test
    void parametersDefaultToNullAndWithersChangeOnlyTheirOwn() {
        GenerationRequest request = GenerationRequest.of(ChatMessage.system("Answer from the context."), QUESTION);
        assertNull(request.maxTokens());
        assertNull(request.temperature());
        assertEquals(List.of(), request.stop());

        GenerationRequest tuned = request.withMaxTokens(256).withTemperature(0.0).withStop(List.of("\n\n"));
        assertEquals(256, tuned.maxTokens());
        assertEquals(0.0, tuned.temperature());
        assertEquals(List.of("\n\n"), tuned.stop());
        assertEquals(request.messages(), tuned.messages());
        assertNull(request.maxTokens(), "the original is unchanged");
        assertEquals(List.of(), new GenerationRequest(List.of(QUESTION), null, null, null).stop());
    }

    @Test
    void aRequestKeepsItsOwnCopyOfTheMessages() {
        List<ChatMessage> messages = new ArrayList<>(List.of(QUESTION));
        GenerationRequest request = GenerationRequest.of(messages);
        messages.add(ChatMessage.assistant("injected later"));
        assertEquals(List.of(QUESTION), request.messages());
        assertThrows(UnsupportedOperationException.class, () -> request.messages().add(QUESTION));
    }

    @Test
    void usageDerivesTheTotalOnlyFromBothPartsAndRefusesNegatives() {
        assertEquals(30, new TokenUsage(10, 20, null).totalTokens());
        assertEquals(99, new TokenUsage(10, 20, 99).totalTokens(), "a reported total is kept as reported");
        assertNull(new TokenUsage(10, null, null).totalTokens());
        assertNull(new TokenUsage(Integer.MAX_VALUE, 1, null).totalTokens(), "a sum beyond int is not invented");
        assertTrue(new TokenUsage(null, 5, null).isKnown());
        assertFalse(TokenUsage.UNKNOWN.isKnown());
        assertThrows(IllegalArgumentException.class, () -> new TokenUsage(-1, 2, null));
    }

    @Test
    void aGenerationHasTextAModelAndNeverANullUsage() {
        Generation generation = new Generation("", "gpt-test", null, null);
        assertSame(TokenUsage.UNKNOWN, generation.usage());
        assertFalse(generation.truncated());
        assertTrue(new Generation("cut", "m", TokenUsage.UNKNOWN, FinishReason.LENGTH).truncated());
        assertThrows(IllegalArgumentException.class, () -> new Generation("x", " ", null, null));
        assertThrows(NullPointerException.class, () -> new Generation(null, "m", null, null));
    }
}
