/**
 * ONNX inference shared by the ONNX plugins (bundled inside each): BERT tokenization, the bi-encoder, the bundled
 * model and inference workers.
 */
package io.corpora.onnx;
