ALTER TABLE "products" ADD COLUMN "name_search" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "series_search" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- Backfill rows written before these columns existed (the application writes them from now on).
UPDATE "products" SET
  "name_search" = translate(lower("title"), 'àâäáãåçéèêëíìîïñóòôöõúùûüýÿ', 'aaaaaaceeeeiiiinooooouuuuyy'),
  "series_search" = translate(lower(coalesce("series", '')), 'àâäáãåçéèêëíìîïñóòôöõúùûüýÿ', 'aaaaaaceeeeiiiinooooouuuuyy');
