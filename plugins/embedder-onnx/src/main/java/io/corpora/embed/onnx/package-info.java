/**
 * Provider {@code onnx}: the bundled default embedder (bge-small-en-v1.5, int8) or an operator-supplied ONNX model.
 */
package io.corpora.embed.onnx;
