-- The counter's finder (student_detail_v) searches the child's name, the father's name and the phone as one
-- trigram expression pushed down to student; this index answers it (student-detail.view.ts, studentFinderSearchIndex).
CREATE INDEX IF NOT EXISTS "student_finder_search_trgm" ON "student" USING gin ((lower(coalesce("stud_fs_nm", '') || ' ' || coalesce("stud_fthr_nm", '') || ' ' || coalesce("stud_ph", ''))) gin_trgm_ops);
