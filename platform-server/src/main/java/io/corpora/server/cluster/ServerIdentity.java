package io.corpora.server.cluster;

import jakarta.enterprise.context.ApplicationScoped;
import java.security.SecureRandom;
import java.util.HexFormat;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Who this server process is in the cluster: a stable name ({@code corpora.server.name}, else Liberty's server name)
 * and a per-boot id ({@code name@random}). Work is stamped with the id, so a restarted process under the same name is a
 * different owner and adopts what its predecessor left.
 */
@ApplicationScoped
public class ServerIdentity {

    private final String name;
    private final String id;

    public ServerIdentity() {
        this(ConfigProvider.getConfig().getOptionalValue("corpora.server.name", String.class)
                .or(() -> java.util.Optional.ofNullable(System.getProperty("wlp.server.name")))
                .orElse("corpora"));
    }

    ServerIdentity(String name) {
        byte[] suffix = new byte[6];
        new SecureRandom().nextBytes(suffix);
        this.name = name;
        this.id = name + "@" + HexFormat.of().formatHex(suffix);
    }

    public String name() {
        return name;
    }

    public String id() {
        return id;
    }
}
