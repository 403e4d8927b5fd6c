package io.corpora.server.health;

import io.corpora.server.security.TokenTrustStartup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Reports which key verifies tokens, so development mode is visible on {@code /health} and {@code /health/ready}
 * ({@code developmentMode: true}). It stays UP in development mode, which is what {@code bin/corpora serve} and the tests
 * run: an operator who must never see development mode alerts on the field, and a production server cannot be in it by
 * accident ({@code TokenTrustStartup} refuses to start without an explicit choice).
 */
@Readiness
@ApplicationScoped
public class DevelopmentModeCheck implements HealthCheck {

    @Inject
    TokenTrustStartup trust;

    @Override
    public HealthCheckResponse call() {
        var decision = trust.decision();
        return HealthCheckResponse.named("token-verification")
                .up()
                .withData("developmentMode", decision.developmentMode())
                .withData("issuer", decision.issuer())
                .build();
    }
}
