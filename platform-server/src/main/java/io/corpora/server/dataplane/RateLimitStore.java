package io.corpora.server.dataplane;

import io.corpora.server.persistence.ControlPlaneUrl;
import java.util.Locale;

/** Where the per-tenant rate-limit buckets live: the {@code corpora.rateLimits.store} setting, resolved. */
enum RateLimitStore {

    /** This process's memory: exact for one server, N times the rate behind N servers. */
    LOCAL,
    /** The control-plane database every server shares: one committed write per allowed call. */
    CONTROL_PLANE;

    static final String SETTING = "corpora.rateLimits.store";

    /**
     * {@code auto} (the default) keeps the buckets in memory when no other process can open the control plane (the
     * embedded H2 database: one server by construction), where a shared bucket would only cost a committed write per
     * call — on H2 a chunk of file each, which nothing gives back while the server runs — and in the control plane
     * otherwise; {@code local} and {@code control-plane} choose one whatever the database.
     */
    static RateLimitStore choose(String setting, String controlPlaneUrl) {
        String value = setting == null ? "auto" : setting.strip().toLowerCase(Locale.ROOT);
        return switch (value) {
            case "auto", "" -> ControlPlaneUrl.privateToThisProcess(controlPlaneUrl) ? LOCAL : CONTROL_PLANE;
            case "local" -> LOCAL;
            case "control-plane" -> CONTROL_PLANE;
            default -> throw new IllegalArgumentException(SETTING + " must be auto, local or control-plane, got '" + setting + "'");
        };
    }
}
