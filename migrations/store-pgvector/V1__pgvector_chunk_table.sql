-- Corpora store-pgvector: the chunk table for the plugin's default settings
-- (table corpora_chunks, dimension 384, metric cosine, fullTextLanguage english, hnswM 16, hnswEfConstruction 64).
-- Kept identical to PgVectorStore.schemaStatements() for those settings by SchemaStatementsTest.
-- Other settings (another width, a list of widths, l2/inner, another language): print the DDL with
-- PgVectorStore.schemaStatements() (or schemaStatementsConcurrently() for a populated table) and apply that.
-- pgvector >= 0.8 must be installed on the server (see scripts/install-pgvector.sh for Debian 12).

CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE IF NOT EXISTS corpora_chunks (
  tenant text NOT NULL,
  partition_key text NOT NULL,
  chunk_id text COLLATE "C" NOT NULL,
  document_id text NOT NULL,
  chunk_index integer NOT NULL,
  embedder text,
  text text NOT NULL,
  index_text text NOT NULL,
  heading_path text[] NOT NULL DEFAULT '{}',
  metadata jsonb NOT NULL DEFAULT '{}',
  embedding vector(384),
  PRIMARY KEY (tenant, partition_key, chunk_id)
);

CREATE INDEX IF NOT EXISTS corpora_chunks_document_idx ON corpora_chunks (tenant, partition_key, document_id);

CREATE INDEX IF NOT EXISTS corpora_chunks_embedder_idx ON corpora_chunks (tenant, partition_key, embedder);

CREATE INDEX IF NOT EXISTS corpora_chunks_metadata_idx ON corpora_chunks USING gin (metadata jsonb_path_ops);

CREATE INDEX IF NOT EXISTS corpora_chunks_embedding_cosine_idx ON corpora_chunks USING hnsw (embedding vector_cosine_ops) WITH (m = 16, ef_construction = 64);

CREATE INDEX IF NOT EXISTS corpora_chunks_fts_english_idx ON corpora_chunks USING gin (to_tsvector('english'::regconfig, index_text));
