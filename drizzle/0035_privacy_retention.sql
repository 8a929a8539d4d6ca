ALTER TABLE "users" ADD COLUMN "last_sign_in_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "inactivity_warned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "stock_alerts" ADD COLUMN "unsubscribed_at" timestamp with time zone;--> statement-breakpoint
-- hand-written
-- Accounts from before: their last sign-in is their latest session still held (none: their creation counts).
UPDATE "users" SET "last_sign_in_at" = (SELECT max("created_at") FROM "sessions" WHERE "sessions"."user_id" = "users"."id") WHERE "last_sign_in_at" IS NULL;--> statement-breakpoint
-- Alerts withdrawn before: the retention period starts now.
UPDATE "stock_alerts" SET "unsubscribed_at" = now() WHERE "status" = 'unsubscribed' AND "unsubscribed_at" IS NULL;
