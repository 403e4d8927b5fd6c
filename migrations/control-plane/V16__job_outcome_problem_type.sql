-- A failed document of a job keeps the kind of problem a single-document ingest would have answered (concurrent-write,
-- quota-exceeded, unreadable-document, ...), so a client can tell a refusal to retry from one to give up on without
-- parsing the message. Null for successes and for rows recorded before this column.
-- Portable SQL: PostgreSQL 15 and H2 2.3 (MODE=PostgreSQL).

ALTER TABLE ingest_job_outcomes ADD COLUMN problem_type VARCHAR(64);
