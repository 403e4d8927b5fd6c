-- Set when a document's new version is activated while chunks of older versions may still be in the store, cleared
-- once they are deleted. A crash between the two leaves the marker, so the restart knows which documents to clean
-- without scanning every store.
-- Portable SQL: PostgreSQL 15 and H2 2.3 (MODE=PostgreSQL).

ALTER TABLE documents ADD COLUMN cleanup_pending BOOLEAN DEFAULT FALSE NOT NULL;
