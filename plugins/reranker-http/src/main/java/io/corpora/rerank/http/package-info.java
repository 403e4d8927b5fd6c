/** A reranker calling a rerank HTTP API (Cohere, Jina, Voyage, TEI formats), with bounded response bodies. */
package io.corpora.rerank.http;
