package io.corpora.generate.openai;

import io.corpora.testkit.ChatCompletionsStandIn;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** Each test gets a fresh {@link ChatCompletionsStandIn}, stopped after it. */
abstract class StandInTest {

    protected ChatCompletionsStandIn standIn;

    @BeforeEach
    void startStandIn() throws Exception {
        standIn = new ChatCompletionsStandIn();
    }

    @AfterEach
    void stopStandIn() {
        standIn.close();
    }
}
