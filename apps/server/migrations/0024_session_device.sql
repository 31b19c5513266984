ALTER TABLE "session" ADD COLUMN "sess_dev" varchar(80);
