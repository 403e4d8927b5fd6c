package io.corpora.store.pgvector;

/** A database failure of the pgvector store, naming the table and the operation. */
public final class PgVectorStoreException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    PgVectorStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
