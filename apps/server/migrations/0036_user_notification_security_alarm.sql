ALTER TABLE "user_notification" ALTER COLUMN "ntf_id" DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE "user_notification" ALTER COLUMN "usr_ntf_ttl" SET DATA TYPE varchar(400);
--> statement-breakpoint
ALTER TABLE "user_notification" ADD COLUMN "usr_ntf_kind" varchar(60);
--> statement-breakpoint
ALTER TABLE "user_notification" ADD COLUMN "usr_ntf_ref" integer;
--> statement-breakpoint
CREATE UNIQUE INDEX "user_notification_uq2" ON "user_notification" USING btree ("inst_cd","usr_cd","usr_ntf_kind","usr_ntf_ref");
