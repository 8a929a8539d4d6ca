-- Typo-tolerant search (app/services/product-search.server.ts). pg_trgm: PGlite ships it (loaded in
-- app/db/client.server.ts); on PostgreSQL it is in contrib, and CREATE EXTENSION needs a
-- superuser or, pg_trgm being a trusted extension (PostgreSQL 13+), the CREATE privilege on
-- the database.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "search_words" (
	"word" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE INDEX "search_words_trgm_idx" ON "search_words" USING gin ("word" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "products_name_search_trgm_idx" ON "products" USING gin ("name_search" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "products_search_text_trgm_idx" ON "products" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
-- The words a typo may stand for: every word of 4 characters or more, with a letter, of any
-- product's search text, whoever writes it (the shop, the admin, the CSV import, psql). Words
-- nobody uses any more stay: looking one up only finds no product. Inserts are handled once per
-- statement (a CSV import, a seed); an update only when it changes the text (not a stock change).
CREATE OR REPLACE FUNCTION search_words_of(text) RETURNS SETOF text AS $$
  SELECT DISTINCT w FROM regexp_split_to_table($1, '[^[:alnum:]]+') AS w WHERE length(w) >= 4 AND w ~ '[[:alpha:]]'
$$ LANGUAGE sql IMMUTABLE;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION remember_inserted_search_words() RETURNS trigger AS $$
BEGIN
  INSERT INTO search_words (word) SELECT DISTINCT w FROM inserted, search_words_of(inserted.search_text) AS w ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER products_insert_search_words
AFTER INSERT ON "products" REFERENCING NEW TABLE AS inserted
FOR EACH STATEMENT EXECUTE FUNCTION remember_inserted_search_words();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION remember_updated_search_words() RETURNS trigger AS $$
BEGIN
  INSERT INTO search_words (word) SELECT w FROM search_words_of(NEW.search_text) AS w ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER products_update_search_words
AFTER UPDATE OF search_text ON "products"
FOR EACH ROW WHEN (OLD.search_text IS DISTINCT FROM NEW.search_text) EXECUTE FUNCTION remember_updated_search_words();
--> statement-breakpoint
INSERT INTO search_words (word) SELECT DISTINCT w FROM products, search_words_of(products.search_text) AS w ON CONFLICT DO NOTHING;
