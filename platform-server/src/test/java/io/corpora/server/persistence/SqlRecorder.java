package io.corpora.server.persistence;

import java.util.ArrayList;
import java.util.List;
import org.eclipse.persistence.internal.databaseaccess.DatabaseCall;
import org.eclipse.persistence.sessions.SessionEvent;
import org.eclipse.persistence.sessions.SessionEventAdapter;

/**
 * Records the SQL EclipseLink sends while recording is on (registered on the test persistence unit through
 * {@code eclipselink.session-event-listener}), so a test can assert how many statements a repository call makes and
 * which columns they read.
 */
public final class SqlRecorder extends SessionEventAdapter {

    /** One statement sent: its SQL with {@code ?} placeholders and the values bound to them, in order. */
    record Statement(String sql, List<Object> parameters) {}

    private static final List<Statement> STATEMENTS = new ArrayList<>();
    private static volatile boolean recording;

    /** Runs {@code work} and returns the statements it sent, in order. */
    static List<String> during(Runnable work) {
        return statementsDuring(work).stream().map(Statement::sql).toList();
    }

    /** Runs {@code work} and returns the statements it sent with their bound values, in order (to replay them, e.g. explained). */
    static synchronized List<Statement> statementsDuring(Runnable work) {
        STATEMENTS.clear();
        recording = true;
        try {
            work.run();
        } finally {
            recording = false;
        }
        return List.copyOf(STATEMENTS);
    }

    @Override
    public void postExecuteCall(SessionEvent event) {
        if (recording && event.getCall() instanceof DatabaseCall call) {
            synchronized (STATEMENTS) {
                STATEMENTS.add(new Statement(call.getSQLString(), new ArrayList<>(call.getParameters())));
            }
        }
    }
}
