package io.corpora.onnx;

import java.util.Map;
import java.util.function.IntConsumer;

/**
 * Greedy longest-match-first WordPiece over one pre-tokenized word, as BERT and Hugging Face do it: a word with
 * no full segmentation, or longer than {@code maxInputCharsPerWord}, becomes a single unknown token.
 */
final class WordPiece {

    private final Map<String, Integer> vocab;
    private final int unknownId;
    private final String continuationPrefix;
    private final int maxInputCharsPerWord;

    WordPiece(Map<String, Integer> vocab, String unknownToken, String continuationPrefix, int maxInputCharsPerWord) {
        this.vocab = Map.copyOf(vocab);
        Integer unk = vocab.get(unknownToken);
        if (unk == null) {
            throw new IllegalArgumentException("the vocabulary has no unknown token '" + unknownToken + "'");
        }
        this.unknownId = unk;
        this.continuationPrefix = continuationPrefix;
        this.maxInputCharsPerWord = maxInputCharsPerWord;
    }

    void encode(String word, IntConsumer ids) {
        if (word.codePointCount(0, word.length()) > maxInputCharsPerWord) {
            ids.accept(unknownId);
            return;
        }
        int[] pieces = new int[word.length()];
        int count = 0;
        int start = 0;
        while (start < word.length()) {
            int end = word.length();
            Integer match = null;
            while (start < end) {
                String candidate = word.substring(start, end);
                if (start > 0) {
                    candidate = continuationPrefix + candidate;
                }
                match = vocab.get(candidate);
                if (match != null) {
                    break;
                }
                end = word.offsetByCodePoints(end, -1);
            }
            if (match == null) {
                ids.accept(unknownId);
                return;
            }
            pieces[count++] = match;
            start = end;
        }
        for (int i = 0; i < count; i++) {
            ids.accept(pieces[i]);
        }
    }

    Integer id(String token) {
        return vocab.get(token);
    }

    int size() {
        return vocab.size();
    }
}
