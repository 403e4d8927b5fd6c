/**
 * ONNX rerankers: {@code maxsim} (sentence MaxSim with the bundled bi-encoder) and {@code onnx-cross-encoder} (an
 * operator-supplied cross-encoder).
 */
package io.corpora.rerank.onnx;
