DROP INDEX "quick_menu_qm_pg_nm_uq";
--> statement-breakpoint
ALTER TABLE "quick_menu" ADD COLUMN "usr_cd" integer;
--> statement-breakpoint
-- Shortcuts become each user's own: a row made before is its creator's (the first one per page), else nobody's.
UPDATE "quick_menu" q SET "usr_cd" = q."crt_by"
WHERE EXISTS (SELECT 1 FROM "employee" e WHERE e."usr_cd" = q."crt_by")
  AND q."qm_cd" = (SELECT min(o."qm_cd") FROM "quick_menu" o WHERE o."inst_cd" = q."inst_cd" AND o."crt_by" = q."crt_by" AND lower(o."qm_pg_pth") = lower(q."qm_pg_pth"));
--> statement-breakpoint
-- Widgets made before drove nothing: they get no entity, and the dashboard says each is not set up.
ALTER TABLE "widget" ADD COLUMN "wdgt_ent" varchar(60) NOT NULL DEFAULT '';
--> statement-breakpoint
ALTER TABLE "widget" ALTER COLUMN "wdgt_ent" DROP DEFAULT;
--> statement-breakpoint
ALTER TABLE "widget" ADD COLUMN "wdgt_msr" varchar(60);
--> statement-breakpoint
ALTER TABLE "widget" ADD COLUMN "wdgt_grp" varchar(60);
--> statement-breakpoint
ALTER TABLE "widget" ADD COLUMN "wdgt_dt_fld" varchar(60);
--> statement-breakpoint
ALTER TABLE "widget" ADD COLUMN "wdgt_dt_frm" integer;
--> statement-breakpoint
ALTER TABLE "widget" ADD COLUMN "wdgt_dt_to" integer;
--> statement-breakpoint
ALTER TABLE "widget" ADD COLUMN "wdgt_whr" jsonb;
--> statement-breakpoint
ALTER TABLE "widget" ADD COLUMN "wdgt_lmt" integer;
--> statement-breakpoint
ALTER TABLE "widget" ADD COLUMN "wdgt_ord" integer;
--> statement-breakpoint
ALTER TABLE "quick_menu" ADD CONSTRAINT "quick_menu_usr_cd_employee_usr_cd_fk" FOREIGN KEY ("usr_cd") REFERENCES "public"."employee"("usr_cd") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "quick_menu_usr_cd_idx" ON "quick_menu" USING btree ("usr_cd");
--> statement-breakpoint
CREATE UNIQUE INDEX "quick_menu_uq1" ON "quick_menu" USING btree ("inst_cd","usr_cd",lower("qm_pg_pth"));
