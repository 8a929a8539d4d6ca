ALTER TABLE "products" ADD COLUMN "manufacturer_outside_eu" boolean;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "eu_rep_name" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "eu_rep_address" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "eu_rep_email" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "manufacturer_reference" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "label_image_path" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "pegi_rating" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "pegi_descriptors" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "safety_profiles" ADD COLUMN "manufacturer_outside_eu" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "safety_profiles" ADD COLUMN "eu_rep_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "safety_profiles" ADD COLUMN "eu_rep_address" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "safety_profiles" ADD COLUMN "eu_rep_email" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_pegi_rating_known" CHECK ("products"."pegi_rating" is null or "products"."pegi_rating" in (3, 7, 12, 16, 18));--> statement-breakpoint
-- hand-written
-- The three makers the shop started with (migration 0016) are established outside the EU (United
-- States, Japan): their EU responsible person is required. Only the profiles still naming them
-- are marked; a profile the seller changed to another maker keeps its own answer. Idempotent.
UPDATE "safety_profiles" SET "manufacturer_outside_eu" = true
WHERE ("brand", "manufacturer_name") IN (
  ('Pokémon', 'The Pokémon Company International, Inc.'),
  ('Magic', 'Wizards of the Coast LLC'),
  ('One Piece', 'Bandai Co., Ltd.')
) AND NOT "manufacturer_outside_eu";
