package io.corpora.controlplane;

/** Lifecycle of an ingest job. */
public enum JobStatus { QUEUED, RUNNING, SUCCEEDED, FAILED, PARTIALLY_FAILED }
