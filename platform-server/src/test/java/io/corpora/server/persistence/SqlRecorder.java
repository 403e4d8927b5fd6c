package io.corpora.server.persistence;

import jakarta.persistence.EntityManager;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.eclipse.persistence.internal.databaseaccess.DatabaseCall;
import org.eclipse.persistence.sessions.SessionEvent;
import org.eclipse.persistence.sessions.SessionEventAdapter;

/**
 * Records the SQL EclipseLink sends while recording is on (registered on the test persistence unit through
 * {@code eclipselink.session-event-listener}), so a test can assert how many statements a repository call makes and
 * which columns they read; and, through {@link #recordingJdbc}, the statements a repository prepares itself on the
 * transaction's connection.
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

    /** What runs, once, on the thread about to send the first statement {@code sql} accepts (to interleave another connection). */
    private static final AtomicReference<Map.Entry<Predicate<String>, Runnable>> BEFORE = new AtomicReference<>();

    /** Runs {@code action} right before the next statement EclipseLink sends whose SQL {@code sql} accepts, on its thread. */
    static void beforeStatement(Predicate<String> sql, Runnable action) {
        BEFORE.set(Map.entry(sql, action));
    }

    @Override
    public void preExecuteCall(SessionEvent event) {
        Map.Entry<Predicate<String>, Runnable> before = BEFORE.get();
        if (before != null && event.getCall() instanceof DatabaseCall call && before.getKey().test(call.getSQLString())
                && BEFORE.compareAndSet(before, null)) {
            before.getValue().run();
        }
    }

    @Override
    public void postExecuteCall(SessionEvent event) {
        if (event.getCall() instanceof DatabaseCall call) {
            record(call.getSQLString(), call.getParameters());
        }
    }

    private static void record(String sql, List<?> parameters) {
        if (recording) {
            synchronized (STATEMENTS) {
                STATEMENTS.add(new Statement(sql, new ArrayList<>(parameters)));
            }
        }
    }

    /**
     * {@code em}, except that the connection {@code unwrap(Connection.class)} gives records the statements prepared on it
     * when they run (a repository that sends a statement around EclipseLink, on the transaction's connection).
     */
    static EntityManager recordingJdbc(EntityManager em) {
        return proxy(EntityManager.class, em, (method, args, result) ->
                "unwrap".equals(method.getName()) && args[0] == Connection.class ? recording((Connection) result) : result);
    }

    private static Connection recording(Connection connection) {
        return proxy(Connection.class, connection, (method, args, result) -> "prepareStatement".equals(method.getName())
                ? recording((PreparedStatement) result, (String) args[0]) : result);
    }

    private static PreparedStatement recording(PreparedStatement statement, String sql) {
        Map<Integer, Object> bound = new TreeMap<>();
        return proxy(PreparedStatement.class, statement, (method, args, result) -> {
            String name = method.getName();
            if (name.startsWith("set") && args != null && args.length >= 2 && args[0] instanceof Integer index) {
                bound.put(index, args[1]);
            } else if (name.startsWith("execute")) {
                record(sql, List.copyOf(bound.values()));
            }
            return result;
        });
    }

    /** What a proxy answers: the delegate's result of {@code method}, or what replaces it. */
    @FunctionalInterface
    private interface AfterCall {
        Object apply(Method method, Object[] args, Object result) throws Exception;
    }

    @SuppressWarnings("unchecked")
    private static <T> T proxy(Class<T> type, T delegate, AfterCall after) {
        InvocationHandler handler = (self, method, args) -> {
            Object result;
            try {
                result = method.invoke(delegate, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
            return after.apply(method, args, result);
        };
        return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler);
    }
}
