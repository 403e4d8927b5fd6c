package io.corpora.client.model;

import java.util.List;

/** Recent jobs, newest first. */
public record JobList(List<Job> jobs) {}
