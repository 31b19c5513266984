ALTER TABLE "notification_mapping" ADD COLUMN "ntf_mapp_eml" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "user_notification" ADD COLUMN "usr_ntf_eml_at" timestamp with time zone;
