DROP INDEX "drop_queue_rank_idx";--> statement-breakpoint
DROP INDEX "drop_queue_network_idx";--> statement-breakpoint
ALTER TABLE "drop_queue" ADD COLUMN "drop_time" timestamp with time zone;--> statement-breakpoint
-- Tickets taken before this column belong to their product's current opening.
UPDATE "drop_queue" AS q SET "drop_time" = coalesce(p."drop_time", q."joined_at") FROM "products" AS p WHERE p."id" = q."product_id";--> statement-breakpoint
ALTER TABLE "drop_queue" ALTER COLUMN "drop_time" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "drop_queue_rank_idx" ON "drop_queue" USING btree ("product_id","drop_time","status","rank");--> statement-breakpoint
CREATE INDEX "drop_queue_network_idx" ON "drop_queue" USING btree ("product_id","drop_time","network");
