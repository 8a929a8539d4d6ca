CREATE TABLE "drop_refusals" (
	"product_id" integer NOT NULL,
	"reason" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "drop_refusals_product_id_reason_pk" PRIMARY KEY("product_id","reason")
);
--> statement-breakpoint
ALTER TABLE "drop_refusals" ADD CONSTRAINT "drop_refusals_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;