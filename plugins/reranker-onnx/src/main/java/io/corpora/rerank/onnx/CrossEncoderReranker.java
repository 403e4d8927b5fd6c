package io.corpora.rerank.onnx;

import io.corpora.onnx.BertTokenizer;
import io.corpora.onnx.Encoding;
import io.corpora.onnx.InferenceWorkers;
import io.corpora.onnx.OnnxSession;
import io.corpora.onnx.OutputTensor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.logging.Logger;
import java.util.stream.IntStream;

/**
 * Scores (query, passage) pairs with a cross-encoder: {@code [CLS] query [SEP] passage [SEP]} with segment ids
 * 0 then 1, in batches of similar length (less padding) spread over the inference workers. A pair longer than the
 * model reads keeps the whole query (cut to half the budget at most) and the start of the passage; every cut is
 * logged with its counts. With a dynamically quantised (int8) model, a batch of more than one pair makes a pair's score
 * depend on its batch-mates (the activations' quantisation scale is the batch's), by about 1e-3 — found by the test
 * kit's {@code RerankerContract}; configure {@code batchSize: 1} where identical scores across requests matter.
 */
final class CrossEncoderReranker extends CheckedReranker {

    private final BertTokenizer tokenizer;
    private final OnnxSession session;
    private final InferenceWorkers workers;
    private final CrossEncoderSettings settings;
    private final Logger logger;

    CrossEncoderReranker(BertTokenizer tokenizer, OnnxSession session, InferenceWorkers workers, CrossEncoderSettings settings,
                         Logger logger) {
        this.tokenizer = tokenizer;
        this.session = session;
        this.workers = workers;
        this.settings = settings;
        this.logger = logger;
    }

    @Override
    double[] scoreNonEmpty(String query, List<String> texts) {
        int budget = settings.maxSequenceTokens() - 3;
        int[] queryIds = tokenizer.tokenIds(query);
        if (queryIds.length > budget / 2) {
            logQueryCut(queryIds.length, budget / 2);
            queryIds = Arrays.copyOf(queryIds, budget / 2);
        }
        int passageBudget = budget - queryIds.length;
        List<Encoding> pairs = new ArrayList<>(texts.size());
        int cut = 0;
        for (String text : texts) {
            int[] passageIds = tokenizer.tokenIds(text);
            if (passageIds.length > passageBudget) {
                cut++;
                passageIds = Arrays.copyOf(passageIds, passageBudget);
            }
            pairs.add(tokenizer.pair(queryIds, passageIds));
        }
        if (cut > 0) {
            int cutCount = cut;
            logger.warning(() -> "cross-encoder: " + cutCount + " of " + texts.size() + " passages cut to " + passageBudget
                    + " tokens to fit the model's " + settings.maxSequenceTokens() + "-token sequence");
        }
        return scoreInBatches(pairs);
    }

    private double[] scoreInBatches(List<Encoding> pairs) {
        Integer[] byLength = IntStream.range(0, pairs.size()).boxed().toArray(Integer[]::new);
        Arrays.sort(byLength, Comparator.comparingInt(i -> pairs.get(i).length()));
        List<int[]> batches = new ArrayList<>();
        for (int from = 0; from < byLength.length; from += settings.batchSize()) {
            int to = Math.min(byLength.length, from + settings.batchSize());
            batches.add(Arrays.stream(byLength, from, to).mapToInt(Integer::intValue).toArray());
        }
        double[] scores = new double[pairs.size()];
        List<double[]> batchScores = workers.map(batches, batch -> runBatch(pairs, batch));
        for (int b = 0; b < batches.size(); b++) {
            int[] members = batches.get(b);
            for (int k = 0; k < members.length; k++) {
                scores[members[k]] = batchScores.get(b)[k];
            }
        }
        return scores;
    }

    private double[] runBatch(List<Encoding> pairs, int[] members) {
        List<Encoding> batch = Arrays.stream(members).mapToObj(pairs::get).toList();
        OutputTensor output = session.run(batch);
        double[] scores = new double[members.length];
        for (int k = 0; k < members.length; k++) {
            double logit = logit(output, k);
            double score = settings.activation().apply(logit);
            if (!Double.isFinite(score)) {
                throw new IllegalStateException("cross-encoder " + settings.modelPath() + " gave a non-finite score: " + score);
            }
            scores[k] = score;
        }
        return scores;
    }

    /**
     * Rank 2 {@code [batch, labels]} is a classification head (real cross-encoders). Rank 3
     * {@code [batch, tokens, hidden]} is read at the [CLS] position, which lets a bi-encoder stand in structurally.
     */
    private double logit(OutputTensor output, int row) {
        int label = settings.labelIndex();
        return switch (output.rank()) {
            case 2 -> {
                requireLabel(output, output.dim(1));
                yield output.get(row, label);
            }
            case 3 -> {
                requireLabel(output, output.dim(2));
                yield output.get(row, 0, label);
            }
            default -> throw new IllegalStateException("cross-encoder output '" + output.name() + "' has shape "
                    + Arrays.toString(output.shape()) + "; expected [batch, labels]");
        };
    }

    private void requireLabel(OutputTensor output, int labels) {
        if (settings.labelIndex() >= labels) {
            throw new IllegalStateException("labelIndex " + settings.labelIndex() + " is outside output '" + output.name()
                    + "' with " + labels + " labels");
        }
    }

    private void logQueryCut(int tokens, int kept) {
        logger.warning(() -> "cross-encoder: query of " + tokens + " tokens cut to " + kept);
    }

    @Override
    public void close() {
        workers.close();
        session.close();
    }
}
