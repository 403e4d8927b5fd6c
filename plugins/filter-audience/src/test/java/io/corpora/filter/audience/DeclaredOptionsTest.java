package io.corpora.filter.audience;

import io.corpora.testkit.RecordedOptions;
import org.junit.jupiter.api.Test;

/**
 * The declared options of this plugin's providers, recorded: a changed default, bound or alias is a visible diff here
 * ({@link RecordedOptions}), and every default must pass its own declaration.
 */
class DeclaredOptionsTest {

    @Test
    void audienceOptions() {
        RecordedOptions.assertRecordedDefaults(new AudienceFilterHookProvider(), """
                name      | type   | default                                       | minimum | maximum | aliases
                key       | STRING | audience                                      |         |         |
                templates | LIST   | public,role:{roles},user:{sub},group:{groups} |         |         |
                """);
    }
}
