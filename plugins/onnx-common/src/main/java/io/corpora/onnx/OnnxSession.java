package io.corpora.onnx;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An ONNX Runtime session over a BERT-style model (inputs {@code input_ids}, {@code attention_mask} and, when the
 * graph has it, {@code token_type_ids}). {@link #run} is thread-safe: ONNX Runtime allows concurrent runs on one
 * session; with one intra-op thread each run executes on its caller's thread, so concurrency is whatever the
 * caller's worker pool allows.
 */
public final class OnnxSession implements AutoCloseable {

    private static final String INPUT_IDS = "input_ids";
    private static final String ATTENTION_MASK = "attention_mask";
    private static final String TOKEN_TYPE_IDS = "token_type_ids";

    private final OrtEnvironment environment;
    private final OrtSession session;
    private final String modelSource;
    private final boolean takesTokenTypes;
    private final String outputName;

    private OnnxSession(OrtEnvironment environment, OrtSession session, String modelSource, String outputName) {
        this.environment = environment;
        this.session = session;
        this.modelSource = modelSource;
        Set<String> inputs = session.getInputNames();
        if (!inputs.contains(INPUT_IDS) || !inputs.contains(ATTENTION_MASK)) {
            close();
            throw new IllegalArgumentException("model " + modelSource + " is not a BERT-style encoder: its inputs are "
                    + inputs + ", expected input_ids and attention_mask");
        }
        this.takesTokenTypes = inputs.contains(TOKEN_TYPE_IDS);
        Set<String> outputs = session.getOutputNames();
        if (outputName == null) {
            this.outputName = outputs.iterator().next();
        } else if (outputs.contains(outputName)) {
            this.outputName = outputName;
        } else {
            close();
            throw new IllegalArgumentException("model " + modelSource + " has no output '" + outputName + "'; its outputs are " + outputs);
        }
    }

    /**
     * Opens a session.
     *
     * @param outputName the output to read, or null for the graph's first output
     */
    public static OnnxSession open(ModelBytes model, int intraOpThreads, String outputName) {
        if (intraOpThreads < 1) {
            throw new IllegalArgumentException("intraOpThreads must be at least 1, got " + intraOpThreads);
        }
        OrtEnvironment environment = OrtEnvironment.getEnvironment();
        try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
            options.setIntraOpNumThreads(intraOpThreads);
            options.setInterOpNumThreads(1);
            options.setExecutionMode(OrtSession.SessionOptions.ExecutionMode.SEQUENTIAL);
            options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
            OrtSession session = environment.createSession(model.bytes(), options);
            return new OnnxSession(environment, session, model.source(), outputName);
        } catch (OrtException e) {
            throw new IllegalArgumentException("ONNX Runtime cannot load model " + model.source() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Runs one batch; sequences shorter than the longest are padded (id 0, mask 0). The caller decides whether
     * padding is acceptable: for bit-identical vectors, pass one sequence per run.
     */
    public OutputTensor run(List<Encoding> batch) {
        if (batch.isEmpty()) {
            throw new IllegalArgumentException("empty batch");
        }
        int rows = batch.size();
        int width = batch.stream().mapToInt(Encoding::length).max().orElseThrow();
        long[] ids = new long[rows * width];
        long[] mask = new long[rows * width];
        long[] types = new long[rows * width];
        for (int r = 0; r < rows; r++) {
            Encoding e = batch.get(r);
            System.arraycopy(e.inputIds(), 0, ids, r * width, e.length());
            System.arraycopy(e.attentionMask(), 0, mask, r * width, e.length());
            System.arraycopy(e.tokenTypeIds(), 0, types, r * width, e.length());
        }
        long[] shape = {rows, width};
        Map<String, OnnxTensor> inputs = new HashMap<>();
        try {
            inputs.put(INPUT_IDS, OnnxTensor.createTensor(environment, LongBuffer.wrap(ids), shape));
            inputs.put(ATTENTION_MASK, OnnxTensor.createTensor(environment, LongBuffer.wrap(mask), shape));
            if (takesTokenTypes) {
                inputs.put(TOKEN_TYPE_IDS, OnnxTensor.createTensor(environment, LongBuffer.wrap(types), shape));
            }
            try (OrtSession.Result result = session.run(inputs, Set.of(outputName))) {
                OnnxTensor tensor = (OnnxTensor) result.get(outputName)
                        .orElseThrow(() -> new IllegalStateException("model " + modelSource + " returned no '" + outputName + "'"));
                FloatBuffer buffer = tensor.getFloatBuffer();
                if (buffer == null) {
                    throw new IllegalStateException("output '" + outputName + "' of " + modelSource + " is not a float tensor");
                }
                float[] values = new float[buffer.remaining()];
                buffer.get(values);
                return new OutputTensor(outputName, tensor.getInfo().getShape(), values);
            }
        } catch (OrtException e) {
            throw new IllegalStateException("ONNX inference failed for model " + modelSource + ": " + e.getMessage(), e);
        } finally {
            inputs.values().forEach(OnnxTensor::close);
        }
    }

    public boolean takesTokenTypes() {
        return takesTokenTypes;
    }

    public String outputName() {
        return outputName;
    }

    @Override
    public void close() {
        try {
            session.close();
        } catch (OrtException e) {
            throw new IllegalStateException("cannot close ONNX session for " + modelSource, e);
        }
    }
}
