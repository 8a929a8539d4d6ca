ALTER TABLE "wishlist_items" ADD COLUMN "restock_armed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "wishlist_items" ADD COLUMN "drop_alerted_for" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "wishlist_items" ADD COLUMN "price_alerted_figure_cents" integer;--> statement-breakpoint
ALTER TABLE "wishlist_items" ADD COLUMN "price_alerted_cents" integer;--> statement-breakpoint
ALTER TABLE "wishlist_items" ADD COLUMN "consent_text" text DEFAULT 'Je serai prévenu par e-mail, à l''adresse de mon compte, quand ce produit revient en stock, quand sa sortie ouvre ou quand il atteint le prix que j''ai fixé, selon les alertes que je garde ; je peux les couper à tout moment.' NOT NULL;--> statement-breakpoint
ALTER TABLE "wishlist_items" ADD COLUMN "alerted_at" timestamp with time zone;--> statement-breakpoint
-- The wish list's restock alert is armed the moment the product runs out or leaves the shop
-- (offline, back to « Bientôt »), in the transaction that does it (whoever does: a checkout, the
-- admin, psql), so that a sell-out and a restock between two sweeps still make one alert
-- (services/wishlist-alerts.server.ts, decision 067).
CREATE OR REPLACE FUNCTION wishlist_arm_restock() RETURNS trigger AS $$
BEGIN
  UPDATE "wishlist_items" SET "restock_armed" = true WHERE "product_id" = NEW.id AND NOT "restock_armed";
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER products_wishlist_sold_out
AFTER UPDATE OF "stock", "status" ON "products"
FOR EACH ROW WHEN ((OLD."stock" > 0 AND NEW."stock" = 0) OR (OLD."status" = 'en_ligne' AND NEW."status" <> 'en_ligne'))
EXECUTE FUNCTION wishlist_arm_restock();
--> statement-breakpoint
-- A product added to the list while sold out or not yet on sale (« Bientôt ») waits for it as well.
CREATE OR REPLACE FUNCTION wishlist_item_armed() RETURNS trigger AS $$
BEGIN
  NEW."restock_armed" := NOT EXISTS (
    SELECT 1 FROM "products" WHERE "id" = NEW."product_id" AND "stock" > 0 AND "archived_at" IS NULL
      AND ("status" = 'en_ligne' OR ("status" = 'a_venir' AND "drop_time" <= now()))
  );
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER wishlist_items_armed
BEFORE INSERT ON "wishlist_items"
FOR EACH ROW EXECUTE FUNCTION wishlist_item_armed();
