package io.corpora.store.qdrant;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/** Waits for one Qdrant call (its deadline is the client's) and turns its failure into a message naming the call. */
final class QdrantCalls {

    private QdrantCalls() {}

    static <T> T await(String endpoint, String what, Future<T> call) {
        try {
            return call.get();
        } catch (InterruptedException e) {
            call.cancel(true);
            Thread.currentThread().interrupt();
            throw new QdrantStoreException("interrupted while waiting for Qdrant " + endpoint + " to " + what, e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new QdrantStoreException("Qdrant " + endpoint + " failed to " + what + ": " + describe(cause), cause);
        }
    }

    /** gRPC's status code and description, or the exception's own message. */
    static String describe(Throwable failure) {
        if (failure instanceof StatusRuntimeException grpc) {
            Status status = grpc.getStatus();
            return status.getCode() + (status.getDescription() == null ? "" : " (" + status.getDescription() + ")");
        }
        return failure.getClass().getSimpleName() + (failure.getMessage() == null ? "" : ": " + failure.getMessage());
    }
}
