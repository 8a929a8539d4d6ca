CREATE TABLE "drop_queue" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" integer NOT NULL,
	"rank" bigint NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"network" text NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	"admitted_at" timestamp with time zone,
	"admission_expires_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "drop_queue" ADD CONSTRAINT "drop_queue_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "drop_queue_rank_idx" ON "drop_queue" USING btree ("product_id","status","rank");--> statement-breakpoint
CREATE INDEX "drop_queue_network_idx" ON "drop_queue" USING btree ("product_id","network");