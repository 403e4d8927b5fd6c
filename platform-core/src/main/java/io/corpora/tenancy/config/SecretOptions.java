package io.corpora.tenancy.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Recognises plugin options that hold secrets and the {@code ${config:some.key}} references they must be given as,
 * so tenant files and admin requests never carry a secret in clear.
 */
final class SecretOptions {

    /** Words that make an option a secret: password, passwd, secret, token, credential(s); and apiKey / privateKey. */
    private static final Set<String> SECRET_WORDS = Set.of("password", "passwd", "secret", "secrets", "token", "credential",
            "credentials", "apikey");
    private static final Set<String> SECRET_PAIRS = Set.of("api key", "private key", "access key", "client secret");
    private static final Pattern REFERENCE = Pattern.compile("\\$\\{config:[A-Za-z0-9_.\\-]+}");

    private SecretOptions() {}

    /**
     * Whether the option's name contains a secret word as a whole word of its camelCase / dotted / dashed spelling:
     * {@code apiKey}, {@code accessToken} and {@code db.password} are secrets; {@code tokenizerPath} and
     * {@code maxSequenceTokens} are not.
     */
    static boolean looksSecret(String optionName) {
        List<String> words = words(optionName);
        for (int i = 0; i < words.size(); i++) {
            if (SECRET_WORDS.contains(words.get(i)) || (i + 1 < words.size() && SECRET_PAIRS.contains(words.get(i) + " " + words.get(i + 1)))) {
                return true;
            }
        }
        return false;
    }

    private static List<String> words(String name) {
        List<String> words = new ArrayList<>();
        for (String part : name.split("[^A-Za-z0-9]+")) {
            for (String word : part.split("(?<=[a-z0-9])(?=[A-Z])")) {
                if (!word.isEmpty()) {
                    words.add(word.toLowerCase(Locale.ROOT));
                }
            }
        }
        return words;
    }

    static boolean isReference(String value) {
        return REFERENCE.matcher(value).matches();
    }

    /** A value that mentions {@code ${config:} but is not exactly one well-formed reference. */
    static boolean isMalformedReference(String value) {
        return value.contains("${config:") && !isReference(value);
    }
}
