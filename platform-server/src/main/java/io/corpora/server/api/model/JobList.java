package io.corpora.server.api.model;

import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** Recent jobs, newest first. */
@Schema(name = "JobList")
public record JobList(@Schema List<Job> jobs) {}
