package io.corpora.cli;

import io.corpora.security.DevTokenMinter;
import io.corpora.security.TokenClaims;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code corpora token}: mints a JWT signed with the committed DEVELOPMENT key, for local use and tests. Anyone with
 * the repository can mint any token with that key: production servers verify an identity provider's keys instead.
 */
public final class TokenCommand implements Command {

    static final String KEY_PROPERTY = "corpora.dev.jwt.private.key";

    @Override
    public String name() {
        return "token";
    }

    @Override
    public String summary() {
        return "mint a development JWT (never for production)";
    }

    @Override
    public String usage() {
        return """
                usage: corpora token (--admin | --tenant T [--roles reader,writer,tenant-admin]) [options]
                  --admin              a platform-admin token (no tenant claim)
                  --tenant T           the tenant claim: the only tenant the token can act on
                  --roles R1,R2        roles (groups claim); default: reader
                  --sub NAME           subject; default: dev-user
                  --groups G1,G2       ACL groups for the audience filter (acl_groups claim)
                  --partition P        bind the token to one partition of its tenant
                  --ttl MINUTES        lifetime; default 60
                  --key FILE           the development private key (PKCS#8 PEM); default: the repository's
                Prints only the token on standard output, e.g. curl -H "Authorization: Bearer $(bin/corpora token --admin)" …""";
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) {
        Options options = Options.parse(args, Set.of("tenant", "roles", "sub", "groups", "partition", "ttl", "key"), Set.of("admin"));
        boolean admin = options.flag("admin");
        String tenant = options.string("tenant", null);
        if (admin == (tenant != null)) {
            throw new UsageException("give exactly one of --admin or --tenant");
        }
        List<String> roles = admin ? List.of("platform-admin") : split(options.string("roles", "reader"));
        Map<String, Object> extra = new LinkedHashMap<>();
        if (options.string("groups", null) != null) {
            extra.put(TokenClaims.ACL_GROUPS, split(options.string("groups", "")));
        }
        if (options.string("partition", null) != null) {
            extra.put(TokenClaims.PARTITION, options.string("partition", null));
        }
        int ttl = options.integer("ttl", 60, 1, 24 * 60);
        Path key = Path.of(options.string("key", System.getProperty(KEY_PROPERTY, "platform-server/dev-jwt/private.pem")));
        if (!Files.isRegularFile(key)) {
            throw new UsageException("development key " + key + " not found; pass --key");
        }
        String token = DevTokenMinter.fromPem(key).mint(options.string("sub", admin ? "dev-admin" : "dev-user"), tenant, roles,
                Duration.ofMinutes(ttl), extra);
        err.println("corpora token: DEVELOPMENT token (committed key; only a server in development mode accepts it), valid " + ttl + " min");
        out.println(token);
        return 0;
    }

    private static List<String> split(String csv) {
        return Arrays.stream(csv.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }
}
