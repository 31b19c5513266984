ALTER TABLE "mob_notification" ADD COLUMN "mob_ntf_dtl_dlv" varchar(400);
