package io.corpora.server.health;

import io.corpora.spi.store.VectorStore;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import javax.sql.DataSource;
import org.eclipse.microprofile.faulttolerance.Asynchronous;
import org.eclipse.microprofile.faulttolerance.Timeout;

/**
 * The dependency checks behind readiness, each asynchronous with a MicroProfile Fault Tolerance {@code @Timeout}: a hung
 * database or store completes the probe exceptionally at the timeout instead of hanging the health endpoint. MP FT fits
 * here (one policy per method, no tenant in sight); plugin calls use the keyed guard instead. The timeouts can be changed
 * with MP FT's configuration, e.g. {@code io.corpora.server.health.HealthProbes/store/Timeout/value=5000}.
 */
@ApplicationScoped
public class HealthProbes {

    @Resource(lookup = "jdbc/corpora-control-plane")
    DataSource controlPlane;

    @Asynchronous
    @Timeout(2000)
    public CompletionStage<Void> controlPlane() {
        try (Connection connection = controlPlane.getConnection(); Statement statement = connection.createStatement()) {
            statement.setQueryTimeout(2);
            statement.execute("SELECT 1");
            return CompletableFuture.completedFuture(null);
        } catch (SQLException e) {
            throw new IllegalStateException("control-plane database: " + e.getMessage(), e);
        }
    }

    /** Waits for a probe: null when it passed, what failed otherwise ("TimeoutException: …", "InterruptedException"). */
    public static String failureOf(CompletionStage<Void> probe) {
        Throwable failure = failure(probe);
        return failure == null ? null : describe(failure);
    }

    /** Waits for a probe: null when it passed, why it failed otherwise (the interruption of the waiting thread included). */
    public static Throwable failure(CompletionStage<Void> probe) {
        try {
            probe.toCompletableFuture().get();
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return e;
        }
    }

    /** "PSQLException: Connection to db.internal:5432 refused…": the exception's class and its own words. */
    public static String describe(Throwable failure) {
        return failure.getClass().getSimpleName() + (failure.getMessage() == null ? "" : ": " + failure.getMessage());
    }

    @Asynchronous
    @Timeout(2000)
    public CompletionStage<Void> store(VectorStore store) {
        store.checkHealth();
        return CompletableFuture.completedFuture(null);
    }
}
