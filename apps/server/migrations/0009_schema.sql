ALTER TABLE "student" ADD COLUMN "stud_photo" varchar(200);
