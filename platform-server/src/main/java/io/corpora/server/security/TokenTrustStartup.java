package io.corpora.server.security;

import io.corpora.security.TokenTrust;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptor;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigValue;

/**
 * Decides at boot, before the control plane or anything else starts, which key verifies tokens ({@link TokenTrust}), and
 * fails the deployment when none is configured explicitly: the application then never serves a request. Development mode
 * is announced with WARNING lines here and on {@code /health} ({@code DevelopmentModeCheck}).
 */
@ApplicationScoped
public class TokenTrustStartup {

    private static final Logger LOG = Logger.getLogger(TokenTrustStartup.class.getName());

    @Inject
    Config config;

    private volatile TokenTrust.Decision decision;

    void onStartup(@Observes @Initialized(ApplicationScoped.class) @Priority(Interceptor.Priority.PLATFORM_BEFORE - 100) Object event) {
        decision();
    }

    /** The decision, made on first use; {@link TokenTrust.RefusedException} (logged SEVERE) when the server must not start. */
    public synchronized TokenTrust.Decision decision() {
        if (decision != null) {
            return decision;
        }
        boolean developmentMode = TokenTrust.developmentMode(System::getProperty, System::getenv);
        Map<String, String> operatorSettings = new LinkedHashMap<>();
        for (String name : TokenTrust.SETTINGS) {
            ConfigValue value = config.getConfigValue(name);
            if (value.getValue() != null && !DevelopmentKeyConfigSource.NAME.equals(value.getSourceName())) {
                operatorSettings.put(name, value.getValue());
            }
        }
        ConfigValue devMode = config.getConfigValue(TokenTrust.DEV_MODE_PROPERTY);
        String devModeElsewhere = !developmentMode && "true".equalsIgnoreCase(String.valueOf(devMode.getValue()).strip())
                ? devMode.getSourceName() : null;
        try {
            decision = TokenTrust.decide(developmentMode, operatorSettings, devModeElsewhere);
        } catch (TokenTrust.RefusedException e) {
            LOG.log(Level.SEVERE, e.getMessage());
            throw e;
        }
        if (decision.developmentMode()) {
            String banner = "*** CORPORA DEVELOPMENT MODE *** ";
            LOG.warning(banner + "Tokens are verified with " + decision.verifiedWith() + " and issuer " + decision.issuer()
                    + ": anyone with the repository can mint any token, platform-admin included.");
            LOG.warning(banner + "Switched on by -D" + TokenTrust.DEV_MODE_PROPERTY + "=true or " + TokenTrust.DEV_MODE_ENVIRONMENT
                    + "=true. Never run a production server in development mode; /health reports developmentMode=true.");
        } else {
            LOG.info("Tokens are verified with " + decision.verifiedWith() + ", issuer " + decision.issuer());
        }
        return decision;
    }
}
