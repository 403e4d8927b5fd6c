package io.corpora.cli;

import io.corpora.security.DevTokenMinter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The bearer token of a command that calls a running server: {@code --token JWT}, else {@code --token-file FILE}
 * (the file's first line), else {@code $CORPORA_TOKEN}, else a DEVELOPMENT token for the command's role, minted with
 * {@code --key FILE} or the repository's development key (only a server in development mode accepts it).
 */
public final class ServerToken {

    /** The options {@link #resolve} reads; a command adds them to its valued options. */
    public static final Set<String> OPTIONS = Set.of("token", "token-file", "key");

    private ServerToken() {}

    public static String resolve(Options options, String command, String tenant, String role, Map<String, ?> claims, PrintStream err) {
        if (options.string("token").isPresent()) {
            return options.string("token").get();
        }
        if (options.string("token-file").isPresent()) {
            Path file = Path.of(options.string("token-file").get());
            try {
                String token = Files.readString(file).strip().lines().findFirst().orElse("");
                if (token.isEmpty()) {
                    throw new UsageException("--token-file " + file + " is empty");
                }
                return token;
            } catch (IOException e) {
                throw new UsageException("--token-file " + file + " cannot be read: " + e.getMessage());
            }
        }
        String fromEnvironment = System.getenv("CORPORA_TOKEN");
        if (fromEnvironment != null && !fromEnvironment.isBlank()) {
            return fromEnvironment.strip();
        }
        String key = options.string("key", System.getProperty(TokenCommand.KEY_PROPERTY));
        if (key == null || !Files.isRegularFile(Path.of(key))) {
            throw new UsageException("no --token or --token-file given, $CORPORA_TOKEN is unset and no development key is available (--key FILE)");
        }
        err.println("corpora " + command + ": no token given: using a DEVELOPMENT " + role + " token for tenant " + tenant);
        try {
            return DevTokenMinter.fromPem(Path.of(key)).mint("corpora-" + command, tenant, List.of(role), Duration.ofHours(12), claims);
        } catch (RuntimeException e) { // unreadable, or not a PKCS#8 PEM key
            throw new UsageException("development key " + key + " cannot be read: " + e.getMessage());
        }
    }
}
