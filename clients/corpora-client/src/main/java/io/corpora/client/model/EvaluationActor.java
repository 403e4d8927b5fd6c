package io.corpora.client.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * Who an evaluation retrieves as: a judged document this actor may not see counts as not retrieved.
 *
 * @param groups    ACL groups (the tenant's filter hook decides on them); null: the caller's
 * @param partition null: the caller's; a partition-bound token cannot leave its own
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record EvaluationActor(List<String> groups, String partition) {}
