package io.corpora.server.admin;

import io.corpora.controlplane.AuditEvent;
import io.corpora.controlplane.AuditLog;
import io.corpora.controlplane.AuditThrottle;
import io.corpora.security.ClaimReader;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.ext.Provider;
import java.lang.reflect.Method;
import java.security.Principal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Audits admin calls refused for lack of the platform-admin role (403) as {@code admin.denied}, with the caller's
 * subject and tenant claim, bounded by an {@link AuditThrottle} per subject, tenant claim and route (the route's
 * template, so varying a path parameter is the same route): the first {@value #DEFAULT_RECORDED_PER_WINDOW} denials of a
 * window are recorded, the rest are counted into one {@value #SUPPRESSED_ACTION} row when the window ends (its
 * {@code details.suppressed} is the count; its target the route's template). Unauthenticated calls (401) are refused
 * before the application sees them.
 */
@Provider
@ApplicationScoped
public class AuditDeniedAdminCalls implements ContainerResponseFilter {

    public static final int DEFAULT_RECORDED_PER_WINDOW = 5;
    public static final String SUPPRESSED_ACTION = "admin.denied.suppressed";
    /** Subjects times routes tracked at once; denials beyond share one overflow key. */
    static final int MAX_KEYS = 1000;
    private static final int MAX_SUBJECT_CHARS = 200;
    private static final Pattern PARAMETER_REGEX = Pattern.compile("\\{\\s*(\\w+)\\s*:[^}]*}");
    private static final Logger LOG = Logger.getLogger(AuditDeniedAdminCalls.class.getName());

    /** Whose denials of which route share a window; the overflow key is {@code *} everywhere. */
    record Key(String actor, String tokenTenant, String route) {}

    private static final Key OVERFLOW = new Key("*", null, "*");

    @Inject
    AuditLog audit;

    @Inject
    @ConfigProperty(name = "corpora.audit.deniedCalls.window", defaultValue = "PT1M")
    Duration window;

    @Inject
    @ConfigProperty(name = "corpora.audit.deniedCalls.recordedPerWindow", defaultValue = "" + DEFAULT_RECORDED_PER_WINDOW)
    int recordedPerWindow;

    @Resource
    ManagedScheduledExecutorService scheduler;

    @Context
    ResourceInfo resource;

    private AuditThrottle<Key> throttle;
    private ScheduledFuture<?> sweep;

    @PostConstruct
    void start() {
        throttle = new AuditThrottle<>(Clock.systemUTC(), window, recordedPerWindow, MAX_KEYS, OVERFLOW);
        // Summaries of windows no further denial closes; a quarter window late at most.
        long period = Math.max(100, window.toMillis() / 4);
        sweep = scheduler.scheduleWithFixedDelay(() -> writeSummaries(false), period, period, TimeUnit.MILLISECONDS);
    }

    @PreDestroy
    void stop() {
        sweep.cancel(false);
        writeSummaries(true);
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        String path = request.getUriInfo().getPath();
        if (response.getStatus() != 403 || !(path.startsWith("admin/") || path.startsWith("/admin/"))) {
            return;
        }
        Principal principal = request.getSecurityContext().getUserPrincipal();
        String actor = principal instanceof JsonWebToken jwt && jwt.getSubject() != null ? jwt.getSubject()
                : principal == null ? "anonymous" : principal.getName();
        // Claims are well-formed here: ValidateTokenClaims refused any other token before the route ran.
        String tenant = principal instanceof JsonWebToken jwt ? ClaimReader.readCompact(jwt.getRawToken()).tenant() : null;
        Key key = new Key(abbreviate(actor), tenant, request.getMethod() + " " + routeTemplate(path));
        if (throttle.admit(key)) {
            append(new AuditEvent(Instant.now(), actor, null, "admin.denied", request.getMethod() + " /" + stripSlash(path), "denied",
                    tenant == null ? Map.of("reason", "requires platform-admin") : Map.of("reason", "requires platform-admin", "tokenTenant", tenant)));
        }
        writeSummaries(false);
    }

    private void writeSummaries(boolean all) {
        for (AuditThrottle.Summary<Key> summary : all ? throttle.allSummaries() : throttle.endedSummaries()) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("suppressed", summary.suppressed());
            details.put("from", summary.from().toString());
            details.put("to", summary.to().toString());
            long seconds = Math.max(1, Duration.between(summary.from(), summary.to()).toSeconds());
            details.put("reason", summary.suppressed() + " more denials " + (summary.overflow()
                    ? "by callers beyond the " + MAX_KEYS + " tracked subjects and routes" : "of this subject and route")
                    + " suppressed in the last " + seconds + " s (requires platform-admin)");
            if (summary.key().tokenTenant() != null) {
                details.put("tokenTenant", summary.key().tokenTenant());
            }
            append(new AuditEvent(summary.to(), summary.key().actor(), null, SUPPRESSED_ACTION, summary.key().route(), "denied", details));
        }
    }

    private void append(AuditEvent event) {
        try {
            audit.append(event);
        } catch (RuntimeException e) {
            // The refusal stands either way; a failing audit write must not turn a 403 into a 500.
            LOG.log(Level.WARNING, "could not audit a denied admin call to " + event.target(), e);
        }
    }

    /** The matched route's template with parameter regexes dropped (e.g. {@code /admin/v1/tenants/{id}}), else the path. */
    private String routeTemplate(String path) {
        Method method = resource == null ? null : resource.getResourceMethod();
        if (method == null) {
            return "/" + stripSlash(path);
        }
        Path type = resource.getResourceClass().getAnnotation(Path.class);
        Path own = method.getAnnotation(Path.class);
        String template = "/" + stripSlash(type == null ? "" : type.value()) + (own == null ? "" : "/" + stripSlash(own.value()));
        return PARAMETER_REGEX.matcher(template).replaceAll("{$1}");
    }

    private static String abbreviate(String value) {
        return value.length() <= MAX_SUBJECT_CHARS ? value : value.substring(0, MAX_SUBJECT_CHARS);
    }

    private static String stripSlash(String path) {
        return path.startsWith("/") ? path.substring(1) : path;
    }
}
