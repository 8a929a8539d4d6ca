ALTER TABLE "wishlist_items" ADD COLUMN "restock_armed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "wishlist_items" ADD COLUMN "drop_alerted_for" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "wishlist_items" ADD COLUMN "price_alerted_figure_cents" integer;--> statement-breakpoint
ALTER TABLE "wishlist_items" ADD COLUMN "price_alerted_cents" integer;--> statement-breakpoint
ALTER TABLE "wishlist_items" ADD COLUMN "alerted_at" timestamp with time zone;--> statement-breakpoint
-- The wish list's restock alert is armed the moment the product runs out, in the transaction
-- that takes its last unit (whoever does: a checkout, the admin, psql), so that a sell-out and a
-- restock between two sweeps still make one alert (services/wishlist-alerts.server.ts, decision 067).
CREATE OR REPLACE FUNCTION wishlist_arm_restock() RETURNS trigger AS $$
BEGIN
  UPDATE "wishlist_items" SET "restock_armed" = true WHERE "product_id" = NEW.id AND NOT "restock_armed";
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER products_wishlist_sold_out
AFTER UPDATE OF "stock" ON "products"
FOR EACH ROW WHEN (OLD."stock" > 0 AND NEW."stock" = 0) EXECUTE FUNCTION wishlist_arm_restock();
--> statement-breakpoint
-- A product added to the list while sold out waits for its restock as well.
CREATE OR REPLACE FUNCTION wishlist_item_armed() RETURNS trigger AS $$
BEGIN
  NEW."restock_armed" := NOT EXISTS (SELECT 1 FROM "products" WHERE "id" = NEW."product_id" AND "stock" > 0);
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER wishlist_items_armed
BEFORE INSERT ON "wishlist_items"
FOR EACH ROW EXECUTE FUNCTION wishlist_item_armed();
