CREATE TABLE "business_profiles" (
	"user_id" text PRIMARY KEY NOT NULL,
	"company_name" text NOT NULL,
	"siren" text,
	"vat_number" text,
	"country" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "business_profiles" ADD CONSTRAINT "business_profiles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;