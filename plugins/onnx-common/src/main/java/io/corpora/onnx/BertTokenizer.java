package io.corpora.onnx;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * A pure-Java BERT WordPiece tokenizer read from a Hugging Face {@code tokenizer.json} ({@code WordPiece} model,
 * {@code BertNormalizer}, {@code BertPreTokenizer}). It produces the same ids as Hugging Face's Rust tokenizer,
 * with one deliberate difference: special-token strings typed by a user (say "[SEP]") are tokenized as text,
 * never turned into control tokens. Immutable and thread-safe.
 *
 * <p>Hand-written rather than a library because the maintained one (Hugging Face {@code tokenizers}, via DJL) is a
 * native Rust library per platform that would load into every plugin class loader, while BERT WordPiece is a few
 * hundred lines of Java; the tests use that library as the oracle for the ids.
 */
public final class BertTokenizer {

    private final BertPreTokenizer preTokenizer;
    private final WordPiece wordPiece;
    private final int clsId;
    private final int sepId;

    private BertTokenizer(BertPreTokenizer preTokenizer, WordPiece wordPiece) {
        this.preTokenizer = preTokenizer;
        this.wordPiece = wordPiece;
        this.clsId = requireSpecial("[CLS]");
        this.sepId = requireSpecial("[SEP]");
    }

    /** Reads a {@code tokenizer.json}; the stream is not closed. */
    public static BertTokenizer fromJson(InputStream json, String sourceName) {
        try (JsonParser parser = new JsonFactory().createParser(json)) {
            return TokenizerJson.read(parser, sourceName);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read tokenizer " + sourceName + ": " + e.getMessage(), e);
        }
    }

    /** Token ids of {@code text}, without [CLS]/[SEP]. */
    public int[] tokenIds(String text) {
        IntStream.Builder ids = IntStream.builder();
        for (String word : preTokenizer.words(text)) {
            wordPiece.encode(word, ids);
        }
        return ids.build().toArray();
    }

    /** Tokens the model reads for {@code text}, excluding special tokens. */
    public int countTokens(String text) {
        int[] count = {0};
        for (String word : preTokenizer.words(text)) {
            wordPiece.encode(word, id -> count[0]++);
        }
        return count[0];
    }

    /** {@code [CLS] ids [SEP]}, segment 0. */
    public Encoding single(int[] ids) {
        long[] input = new long[ids.length + 2];
        input[0] = clsId;
        for (int i = 0; i < ids.length; i++) {
            input[i + 1] = ids[i];
        }
        input[input.length - 1] = sepId;
        long[] mask = new long[input.length];
        Arrays.fill(mask, 1);
        return new Encoding(input, mask, new long[input.length]);
    }

    /** {@code [CLS] first [SEP] second [SEP]}: segment 0 up to the first [SEP], segment 1 after it. */
    public Encoding pair(int[] first, int[] second) {
        int length = first.length + second.length + 3;
        long[] input = new long[length];
        long[] types = new long[length];
        int at = 0;
        input[at++] = clsId;
        for (int id : first) {
            input[at++] = id;
        }
        input[at++] = sepId;
        for (int id : second) {
            types[at] = 1;
            input[at++] = id;
        }
        types[at] = 1;
        input[at] = sepId;
        long[] mask = new long[length];
        Arrays.fill(mask, 1);
        return new Encoding(input, mask, types);
    }

    public int vocabularySize() {
        return wordPiece.size();
    }

    private int requireSpecial(String token) {
        Integer id = wordPiece.id(token);
        if (id == null) {
            throw new IllegalArgumentException("the vocabulary has no " + token + " token; not a BERT tokenizer");
        }
        return id;
    }

    /** Streaming reader for the few fields of tokenizer.json that a BERT WordPiece tokenizer needs. */
    private static final class TokenizerJson {
        private Map<String, Integer> vocab;
        private String modelType;
        private String unknownToken = "[UNK]";
        private String continuationPrefix = "##";
        private int maxInputCharsPerWord = 100;
        private boolean lowercase = true;
        private Boolean stripAccents;
        private boolean handleChineseChars = true;
        private boolean cleanText = true;

        static BertTokenizer read(JsonParser parser, String sourceName) throws IOException {
            TokenizerJson json = new TokenizerJson();
            expect(parser.nextToken(), JsonToken.START_OBJECT, sourceName);
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                if ("model".equals(field) && value == JsonToken.START_OBJECT) {
                    json.readModel(parser);
                } else if ("normalizer".equals(field) && value == JsonToken.START_OBJECT) {
                    json.readNormalizer(parser, sourceName);
                } else {
                    parser.skipChildren();
                }
            }
            if (!"WordPiece".equals(json.modelType) || json.vocab == null) {
                throw new IllegalArgumentException("tokenizer " + sourceName + " is not a WordPiece tokenizer (model type "
                        + json.modelType + ")");
            }
            boolean strip = json.stripAccents != null ? json.stripAccents : json.lowercase;
            BertPreTokenizer pre = new BertPreTokenizer(json.lowercase, strip, json.handleChineseChars, json.cleanText);
            return new BertTokenizer(pre, new WordPiece(json.vocab, json.unknownToken, json.continuationPrefix,
                    json.maxInputCharsPerWord));
        }

        private void readModel(JsonParser parser) throws IOException {
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                switch (field) {
                    case "type" -> modelType = parser.getText();
                    case "unk_token" -> unknownToken = parser.getText();
                    case "continuing_subword_prefix" -> continuationPrefix = parser.getText();
                    case "max_input_chars_per_word" -> maxInputCharsPerWord = parser.getIntValue();
                    case "vocab" -> {
                        vocab = new HashMap<>(40_000);
                        while (parser.nextToken() == JsonToken.FIELD_NAME) {
                            String token = parser.currentName();
                            parser.nextToken();
                            vocab.put(token, parser.getIntValue());
                        }
                    }
                    default -> {
                        if (value.isStructStart()) {
                            parser.skipChildren();
                        }
                    }
                }
            }
        }

        private void readNormalizer(JsonParser parser, String sourceName) throws IOException {
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                switch (field) {
                    case "type" -> {
                        if (!"BertNormalizer".equals(parser.getText())) {
                            throw new IllegalArgumentException("tokenizer " + sourceName + " uses normalizer "
                                    + parser.getText() + "; only BertNormalizer is supported");
                        }
                    }
                    case "lowercase" -> lowercase = parser.getBooleanValue();
                    case "strip_accents" -> stripAccents = value == JsonToken.VALUE_NULL ? null : parser.getBooleanValue();
                    case "handle_chinese_chars" -> handleChineseChars = parser.getBooleanValue();
                    case "clean_text" -> cleanText = parser.getBooleanValue();
                    default -> {
                        if (value.isStructStart()) {
                            parser.skipChildren();
                        }
                    }
                }
            }
        }

        private static void expect(JsonToken actual, JsonToken expected, String sourceName) {
            if (actual != expected) {
                throw new IllegalArgumentException("tokenizer " + sourceName + " is not a JSON object");
            }
        }
    }

    @Override
    public String toString() {
        return "BertTokenizer[vocabulary=" + wordPiece.size() + "]";
    }
}
