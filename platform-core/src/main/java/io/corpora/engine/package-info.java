/**
 * The retrieval engine, pure Java: chunking, indexing, embedder decorators and retrievers, composed by its callers (it
 * loads no plugins). {@link io.corpora.engine.CallerText} holds the rule every stored caller text follows.
 */
package io.corpora.engine;
