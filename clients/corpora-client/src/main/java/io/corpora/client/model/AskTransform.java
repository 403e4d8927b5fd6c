package io.corpora.client.model;

import java.util.List;

/**
 * One query transform of an ask.
 *
 * @param name     {@code multi-query} or {@code hyde}
 * @param fellBack true when its model call failed or timed out and the question was retrieved alone
 * @param queries  the extra queries it retrieved with (empty when it fell back)
 * @param reason   why it fell back, or null
 */
public record AskTransform(String name, boolean fellBack, List<String> queries, String reason) {}
