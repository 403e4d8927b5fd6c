package io.corpora.server.persistence;

import jakarta.annotation.Priority;
import jakarta.annotation.Resource;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import jakarta.transaction.HeuristicMixedException;
import jakarta.transaction.HeuristicRollbackException;
import jakarta.transaction.RollbackException;
import jakarta.transaction.Status;
import jakarta.transaction.SystemException;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.TransactionalException;
import jakarta.transaction.UserTransaction;

/**
 * {@code @Transactional(REQUIRED)} for the control-plane repositories, without Liberty's incident reports. Liberty's own
 * interceptor records an FFDC incident (a file under {@code logs/ffdc} and an {@code FFDC1015I} line) for every runtime
 * exception that leaves a transactional method, and these repositories refuse writes by throwing: a concurrent write, a
 * tenant that already exists, a purge that raced an ingest. Those are answered 409 to the caller and are not incidents.
 *
 * <p>Semantics are {@code REQUIRED}'s: a transaction is begun when none is active and committed when the method returns;
 * any exception rolls it back and is rethrown unchanged. Inside a caller's transaction the method joins it, and a runtime
 * exception or an error marks it rollback-only. A commit that fails is a {@link TransactionalException}, as the standard interceptor
 * throws.
 */
@ControlPlaneTransactional
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_BEFORE + 200)
public class ControlPlaneTransactionInterceptor {

    @Resource
    UserTransaction transaction;

    @Resource
    TransactionSynchronizationRegistry transactions;

    @AroundInvoke
    public Object required(InvocationContext call) throws Exception {
        if (transactions.getTransactionStatus() != Status.STATUS_NO_TRANSACTION) {
            return joined(call);
        }
        transaction.begin();
        Object result;
        try {
            result = call.proceed();
        } catch (Exception | Error e) {
            rollback(e);
            throw e;
        }
        commit(call);
        return result;
    }

    private Object joined(InvocationContext call) throws Exception {
        try {
            return call.proceed();
        } catch (RuntimeException | Error e) {
            transactions.setRollbackOnly();
            throw e;
        }
    }

    private void rollback(Throwable cause) {
        try {
            transaction.rollback();
        } catch (SystemException | RuntimeException e) {
            cause.addSuppressed(e);
        }
    }

    private void commit(InvocationContext call) {
        try {
            transaction.commit();
        } catch (RollbackException | HeuristicMixedException | HeuristicRollbackException | SystemException e) {
            throw new TransactionalException("the control-plane transaction of " + call.getMethod().getDeclaringClass().getSimpleName()
                    + "." + call.getMethod().getName() + " did not commit", e);
        }
    }
}
