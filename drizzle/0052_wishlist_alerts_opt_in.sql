ALTER TABLE "wishlist_items" ALTER COLUMN "alert_restock" SET DEFAULT false;--> statement-breakpoint
ALTER TABLE "wishlist_items" ALTER COLUMN "alert_drop" SET DEFAULT false;--> statement-breakpoint
ALTER TABLE "wishlist_items" ALTER COLUMN "consent_text" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "wishlist_items" ALTER COLUMN "consent_text" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "wishlist_items" ADD COLUMN "consented_at" timestamp with time zone;