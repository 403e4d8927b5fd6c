package io.corpora.tenancy.config;

import java.util.regex.Pattern;

/**
 * Recognises plugin options that hold secrets and the {@code ${config:some.key}} references they must be given as,
 * so tenant files and admin requests never carry a secret in clear.
 */
final class SecretOptions {

    /** password, passwd, secret, token, apiKey / api_key / api-key, credential(s), privateKey. */
    private static final Pattern SECRET_NAME =
            Pattern.compile("(?i).*(password|passwd|secret|token|api[-_.]?key|credential|private[-_.]?key).*");
    private static final Pattern REFERENCE = Pattern.compile("\\$\\{config:[A-Za-z0-9_.\\-]+}");

    private SecretOptions() {}

    static boolean looksSecret(String optionName) {
        return SECRET_NAME.matcher(optionName).matches();
    }

    static boolean isReference(String value) {
        return REFERENCE.matcher(value).matches();
    }

    /** A value that mentions {@code ${config:} but is not exactly one well-formed reference. */
    static boolean isMalformedReference(String value) {
        return value.contains("${config:") && !isReference(value);
    }
}
