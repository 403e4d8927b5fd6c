package io.corpora.answer;

/** The tenant has no generator configured; adapters answer 501 and say how to configure one. */
public final class NoGeneratorException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public NoGeneratorException(String tenant) {
        super("tenant '" + tenant + "' has no generator configured, so it cannot answer questions (retrieve works without one)."
                + " Give it one in its tenant file or with PUT /admin/v1/tenants/" + tenant + ", e.g. \"generator\": {\"provider\":"
                + " \"openai\", \"config\": {\"baseUrl\": \"https://api.openai.com/v1\", \"model\": \"gpt-4o-mini\","
                + " \"apiKey\": \"${config:corpora.openai.key}\"}} (GET /admin/v1/plugins lists the generator providers and options)");
    }
}
