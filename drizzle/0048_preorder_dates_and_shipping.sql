ALTER TABLE "order_items" ADD COLUMN "preorder_release_on" date;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "preorder_delivery_on" date;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "preorder_shipping" text;--> statement-breakpoint
-- hand-written
-- Pre-order lines placed before their dates were kept: the product's dates now stand for them.
UPDATE "order_items" SET "preorder_release_on" = p."release_on", "preorder_delivery_on" = p."estimated_delivery_on"
FROM "product_preorders" p
WHERE p."product_id" = "order_items"."product_id" AND "order_items"."preorder" AND "order_items"."preorder_release_on" IS NULL;
