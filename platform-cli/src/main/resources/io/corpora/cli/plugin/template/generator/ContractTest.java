package {{package}};

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.corpora.spi.generate.ChatMessage;
import io.corpora.spi.generate.GenerationRequest;
import io.corpora.spi.generate.Generator;
import io.corpora.spi.generate.GeneratorProvider;
import io.corpora.testkit.Providers;
import java.nio.file.Files;
import java.util.Map;
import org.junit.jupiter.api.Test;

class {{Class}}GeneratorContractTest {

    @Test
    void reportsItsModel() throws Exception {
        Generator g = Providers.create(GeneratorProvider.class, "{{name}}", Map.of(), Files.createTempDirectory("{{name}}"));
        assertEquals(g.modelId(), g.generate(GenerationRequest.of(ChatMessage.user("hello there"))).model());
    }
}
