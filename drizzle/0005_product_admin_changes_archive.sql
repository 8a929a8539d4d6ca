ALTER TABLE "product_admin" ADD COLUMN "changes" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "archived_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_archived_offline" CHECK ("products"."archived_at" is null or "products"."status" = 'hors_ligne');