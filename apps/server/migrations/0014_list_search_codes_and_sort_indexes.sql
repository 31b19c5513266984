DROP INDEX "designation_sort_idx";
--> statement-breakpoint
DROP INDEX "academic_sort_idx";
--> statement-breakpoint
DROP INDEX "employee_sort_idx";
--> statement-breakpoint
DROP INDEX "user_permission_sort_idx";
--> statement-breakpoint
DROP INDEX "class_sort_idx";
--> statement-breakpoint
DROP INDEX "section_sort_idx";
--> statement-breakpoint
DROP INDEX "expense_category_sort_idx";
--> statement-breakpoint
DROP INDEX "book_category_sort_idx";
--> statement-breakpoint
DROP INDEX "book_search_trgm";
--> statement-breakpoint
DROP INDEX "tender_type_sort_idx";
--> statement-breakpoint
DROP INDEX "fee_group_sort_idx";
--> statement-breakpoint
DROP INDEX "holiday_sort_idx";
--> statement-breakpoint
DROP INDEX "exam_sort_idx";
--> statement-breakpoint
DROP INDEX "mark_sort_idx";
--> statement-breakpoint
DROP INDEX "subject_detail_sort_idx";
--> statement-breakpoint
DROP INDEX "quick_menu_sort_idx";
--> statement-breakpoint
DROP INDEX "report_sort_idx";
--> statement-breakpoint
DROP INDEX "circular_sort_idx";
--> statement-breakpoint
DROP INDEX "student_search_trgm";
--> statement-breakpoint
DROP INDEX "student_sort_idx";
--> statement-breakpoint
DROP INDEX "student_daywise_attendance_summary_sort_idx";
--> statement-breakpoint
DROP INDEX "student_admission_sort_idx";
--> statement-breakpoint
DROP INDEX "student_assignment_sort_idx";
--> statement-breakpoint
DROP INDEX "student_resource_sort_idx";
--> statement-breakpoint
DROP INDEX "student_leave_sort_idx";
--> statement-breakpoint
DROP INDEX "early_pickup_sort_idx";
--> statement-breakpoint
DROP INDEX "member_pickup_sort_idx";
--> statement-breakpoint
DROP INDEX "user_assignment_sort_idx";
--> statement-breakpoint
DROP INDEX "user_resource_sort_idx";
--> statement-breakpoint
DROP INDEX "employee_timetable_sort_idx";
--> statement-breakpoint
DROP INDEX "section_timetable_sort_idx";
--> statement-breakpoint
DROP INDEX "fee_collection_bill_search_trgm";
--> statement-breakpoint
DROP INDEX "fee_collection_line_sort_idx";
--> statement-breakpoint
DROP INDEX "online_payment_request_sort_idx";
--> statement-breakpoint
DROP INDEX "expense_sort_idx";
--> statement-breakpoint
DROP INDEX "book_checkinout_summary_sort_idx";
--> statement-breakpoint
DROP INDEX "notification_sort_idx";
--> statement-breakpoint
DROP INDEX "student_attendance_sort_idx";
--> statement-breakpoint
DROP INDEX "student_mark_sort_idx";
--> statement-breakpoint
DROP INDEX "bus_trip_sort_idx";
--> statement-breakpoint
CREATE INDEX "institute_sort_idx" ON "institute" USING btree ("inst_nm","inst_cd");
--> statement-breakpoint
CREATE INDEX "language_sort_idx" ON "language" USING btree ("lang_nm","lang_cd");
--> statement-breakpoint
CREATE INDEX "religion_sort_idx" ON "religion" USING btree ("inst_cd","rgn_nm","rgn_cd");
--> statement-breakpoint
CREATE INDEX "community_sort_idx" ON "community" USING btree ("inst_cd","cmty_nm","cmty_cd");
--> statement-breakpoint
CREATE INDEX "role_sort_idx" ON "role" USING btree ("inst_cd","rl_nm","rl_cd");
--> statement-breakpoint
CREATE INDEX "leave_type_sort_idx" ON "leave_type" USING btree ("inst_cd","leav_typ_nm","leav_typ_cd");
--> statement-breakpoint
CREATE INDEX "document_type_sort_idx" ON "document_type" USING btree ("inst_cd","doc_typ_nm","doc_typ_cd");
--> statement-breakpoint
CREATE INDEX "user_institute_sort_idx" ON "user_institute" USING btree ("inst_cd","usr_inst_cd");
--> statement-breakpoint
CREATE INDEX "user_permission_group_sort_idx" ON "user_permission_group" USING btree ("inst_cd","upg_nm","upg_cd");
--> statement-breakpoint
CREATE INDEX "user_permission_mapping_sort_idx" ON "user_permission_mapping" USING btree ("inst_cd","up_map_cd");
--> statement-breakpoint
CREATE INDEX "setting_sort_idx" ON "setting" USING btree ("inst_cd","setg_cd");
--> statement-breakpoint
CREATE INDEX "class_group_sort_idx" ON "class_group" USING btree ("inst_cd","cls_grp_nm","cls_grp_id");
--> statement-breakpoint
CREATE INDEX "subject_sort_idx" ON "subject" USING btree ("inst_cd","sub_nm","sub_cd");
--> statement-breakpoint
CREATE INDEX "bus_sort_idx" ON "bus" USING btree ("inst_cd","bs_trck_bus_nm","bs_trck_cd");
--> statement-breakpoint
CREATE INDEX "expense_sub_category_sort_idx" ON "expense_sub_category" USING btree ("inst_cd","exp_sub_ctgy_nm","exp_sub_ctgy_cd");
--> statement-breakpoint
CREATE INDEX "book_bk_barcd_code" ON "book" USING btree ("inst_cd",lower("bk_barcd") text_pattern_ops);
--> statement-breakpoint
CREATE INDEX "book_sort_idx" ON "book" USING btree ("inst_cd","bk_nm","bk_cd");
--> statement-breakpoint
CREATE INDEX "fee_type_sort_idx" ON "fee_type" USING btree ("inst_cd","feetyp_nm","feetyp_cd");
--> statement-breakpoint
CREATE INDEX "exam_type_sort_idx" ON "exam_type" USING btree ("inst_cd","acdm_cd","exmtyp_nm","exmtyp_cd");
--> statement-breakpoint
CREATE INDEX "widget_sort_idx" ON "widget" USING btree ("inst_cd","wdgt_nm","wdgt_cd");
--> statement-breakpoint
CREATE INDEX "backup_sort_idx" ON "backup" USING btree ("bckp_fldr_nm","bckp_cd");
--> statement-breakpoint
CREATE INDEX "student_stud_adm_cd_code" ON "student" USING btree ("inst_cd","acdm_cd",lower("stud_adm_cd") text_pattern_ops);
--> statement-breakpoint
CREATE INDEX "employee_attendance_sort_idx" ON "employee_attendance" USING btree ("inst_cd","acdm_cd","usr_atnc_dt","usr_atnc_cd");
--> statement-breakpoint
CREATE INDEX "migration_row_sort_idx" ON "migration_row" USING btree ("inst_cd","mgrtn_row_cd");
--> statement-breakpoint
CREATE INDEX "fee_collection_bill_stud_adm_cd_code" ON "fee_collection_bill" USING btree ("inst_cd","acdm_cd",lower("stud_adm_cd") text_pattern_ops);
--> statement-breakpoint
CREATE INDEX "custom_report_sort_idx" ON "custom_report" USING btree ("inst_cd","cst_rpt_nm","cst_rpt_cd");
--> statement-breakpoint
CREATE INDEX "designation_sort_idx" ON "designation" USING btree ("inst_cd","desg_odr","desg_cd");
--> statement-breakpoint
CREATE INDEX "academic_sort_idx" ON "academic" USING btree ("inst_cd","acdm_strt_yr","acdm_cd");
--> statement-breakpoint
CREATE INDEX "employee_sort_idx" ON "employee" USING btree ("inst_cd","usr_full_nm","usr_cd");
--> statement-breakpoint
CREATE INDEX "user_permission_sort_idx" ON "user_permission" USING btree ("inst_cd","usr_prms_mdl","usr_prms_cd");
--> statement-breakpoint
CREATE INDEX "class_sort_idx" ON "class" USING btree ("inst_cd","cls_odr","cls_cd");
--> statement-breakpoint
CREATE INDEX "section_sort_idx" ON "section" USING btree ("inst_cd","sec_nm","sec_cd");
--> statement-breakpoint
CREATE INDEX "expense_category_sort_idx" ON "expense_category" USING btree ("inst_cd","exp_ctgy_odr","exp_ctgy_cd");
--> statement-breakpoint
CREATE INDEX "book_category_sort_idx" ON "book_category" USING btree ("inst_cd","ctgy_seq_odr","ctgy_cd");
--> statement-breakpoint
CREATE INDEX "book_search_trgm" ON "book" USING gin ((lower(coalesce("bk_nm", '') || ' ' || coalesce("bk_ser_nmb", ''))) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "tender_type_sort_idx" ON "tender_type" USING btree ("inst_cd","tnd_typ_odr","tnd_typ_cd");
--> statement-breakpoint
CREATE INDEX "fee_group_sort_idx" ON "fee_group" USING btree ("inst_cd","acdm_cd","fee_grp_fee_str_dt","fee_grp_cd");
--> statement-breakpoint
CREATE INDEX "holiday_sort_idx" ON "holiday" USING btree ("inst_cd","acdm_cd","hly_frm_dt","hly_cd");
--> statement-breakpoint
CREATE INDEX "exam_sort_idx" ON "exam" USING btree ("inst_cd","acdm_cd","exm_strt_dt","exm_cd");
--> statement-breakpoint
CREATE INDEX "mark_sort_idx" ON "mark" USING btree ("inst_cd","acdm_cd","exm_cd","mrk_cd");
--> statement-breakpoint
CREATE INDEX "subject_detail_sort_idx" ON "subject_detail" USING btree ("inst_cd","acdm_cd","cls_cd","sub_dtl_cd");
--> statement-breakpoint
CREATE INDEX "quick_menu_sort_idx" ON "quick_menu" USING btree ("inst_cd","qm_ord","qm_cd");
--> statement-breakpoint
CREATE INDEX "report_sort_idx" ON "report" USING btree ("inst_cd","rpt_srt_ord","rpt_cd");
--> statement-breakpoint
CREATE INDEX "circular_sort_idx" ON "circular" USING btree ("inst_cd","acdm_cd","crlr_dt","crlr_cd");
--> statement-breakpoint
CREATE INDEX "student_search_trgm" ON "student" USING gin ((lower(coalesce("stud_fs_nm", '') || ' ' || coalesce("stud_ph", ''))) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "student_sort_idx" ON "student" USING btree ("inst_cd","acdm_cd","stud_fs_nm","stud_cd");
--> statement-breakpoint
CREATE INDEX "student_daywise_attendance_summary_sort_idx" ON "student_daywise_attendance_summary" USING btree ("inst_cd","acdm_cd","stud_attn_sum_day","stud_attn_sum_cd");
--> statement-breakpoint
CREATE INDEX "student_admission_sort_idx" ON "student_admission" USING btree ("inst_cd","acdm_cd","stud_admn_dt","stud_admn_cd");
--> statement-breakpoint
CREATE INDEX "student_assignment_sort_idx" ON "student_assignment" USING btree ("inst_cd","acdm_cd","stud_asgmt_due_dt","stud_asgmt_cd");
--> statement-breakpoint
CREATE INDEX "student_resource_sort_idx" ON "student_resource" USING btree ("inst_cd","stud_rscs_upl_dt","stud_rscs_cd");
--> statement-breakpoint
CREATE INDEX "student_leave_sort_idx" ON "student_leave" USING btree ("inst_cd","acdm_cd","stud_leav_frm_dt","stud_leav_cd");
--> statement-breakpoint
CREATE INDEX "early_pickup_sort_idx" ON "early_pickup" USING btree ("inst_cd","acdm_cd","erly_pckp_dt","erly_pckp_cd");
--> statement-breakpoint
CREATE INDEX "member_pickup_sort_idx" ON "member_pickup" USING btree ("inst_cd","acdm_cd","mbr_pckp_dt","mbr_pckp_cd");
--> statement-breakpoint
CREATE INDEX "user_assignment_sort_idx" ON "user_assignment" USING btree ("inst_cd","usr_asgmt_due_dt","usr_asgmt_cd");
--> statement-breakpoint
CREATE INDEX "user_resource_sort_idx" ON "user_resource" USING btree ("inst_cd","usr_rscs_upl_dt","usr_rscs_cd");
--> statement-breakpoint
CREATE INDEX "employee_timetable_sort_idx" ON "employee_timetable" USING btree ("inst_cd","acdm_cd","usr_cd","emp_tme_tbl_cd");
--> statement-breakpoint
CREATE INDEX "section_timetable_sort_idx" ON "section_timetable" USING btree ("inst_cd","acdm_cd","cls_cd","tme_tbl_cd");
--> statement-breakpoint
CREATE INDEX "fee_collection_bill_search_trgm" ON "fee_collection_bill" USING gin ((lower(coalesce("fee_coll_ref", '') || ' ' || coalesce("fee_coll_by", '') || ' ' || coalesce("fee_coll_sts", ''))) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "fee_collection_line_sort_idx" ON "fee_collection_line" USING btree ("inst_cd","acdm_cd","stud_cd","fee_coll_dtl_cd");
--> statement-breakpoint
CREATE INDEX "online_payment_request_sort_idx" ON "online_payment_request" USING btree ("inst_cd","acdm_cd","oln_pay_txn_dt","oln_pay_cd");
--> statement-breakpoint
CREATE INDEX "expense_sort_idx" ON "expense" USING btree ("inst_cd","acdm_cd","exp_dt","exp_cd");
--> statement-breakpoint
CREATE INDEX "book_checkinout_summary_sort_idx" ON "book_checkinout_summary" USING btree ("inst_cd","usr_bk_stk_due_dt","usr_bk_stk_cd");
--> statement-breakpoint
CREATE INDEX "notification_sort_idx" ON "notification" USING btree ("inst_cd","ntf_mapp_odr","ntf_id");
--> statement-breakpoint
CREATE INDEX "student_attendance_sort_idx" ON "student_attendance" USING btree ("inst_cd","acdm_cd","stud_attn_dt","stud_attn_cd");
--> statement-breakpoint
CREATE INDEX "student_mark_sort_idx" ON "student_mark" USING btree ("inst_cd","acdm_cd","exm_cd","stud_mrk_cd");
--> statement-breakpoint
CREATE INDEX "bus_trip_sort_idx" ON "bus_trip" USING btree ("inst_cd","bs_trip_dt","bs_trip_cd");

--> statement-breakpoint
-- Added by hand (drizzle cannot declare statistics): inst_cd and acdm_cd of a year-scoped table are correlated
-- (a year belongs to one institute), so the planner multiplied their selectivities and guessed a year's rows 20x
-- too few. list-explain.test.ts checks every year-scoped table has them.
CREATE STATISTICS IF NOT EXISTS "fee_group_scope_stx" (dependencies, ndistinct) ON "inst_cd", "acdm_cd" FROM "fee_group";
--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "holiday_scope_stx" (dependencies, ndistinct) ON "inst_cd", "acdm_cd" FROM "holiday";
--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "exam_type_scope_stx" (dependencies, ndistinct) ON "inst_cd", "acdm_cd" FROM "exam_type";
--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "exam_scope_stx" (dependencies, ndistinct) ON "inst_cd", "acdm_cd" FROM "exam";
--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "mark_scope_stx" (dependencies, ndistinct) ON "inst_cd", "acdm_cd" FROM "mark";
--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "subject_detail_scope_stx" (dependencies, ndistinct) ON "inst_cd", "acdm_cd" FROM "subject_detail";
--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "circular_scope_stx" (dependencies, ndistinct) ON "inst_cd", "acdm_cd" FROM "circular";
--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "student_scope_stx" (dependencies, ndistinct) ON "inst_cd", "acdm_cd" FROM "student";
--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "wallet_scope_stx" (dependencies, ndistinct) ON "inst_cd", "acdm_cd" FROM "wallet";
--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "certificate_scope_stx" (dependencies, ndistinct) ON "inst_cd", "acdm_cd" FROM "certificate";
--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "student_daywise_attendance_summary_scope_stx" (dependencies, ndistinct) ON "inst_cd", "acdm_cd" FROM "student_daywise_attendance_summary";
--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "student_admission_scope_stx" (dependencies, ndistinct) ON "inst_cd", "acdm_cd" FROM "student_admission";
--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "student_assignment_scope_stx" (dependencies, ndistinct) ON "inst_cd", "acdm_cd" FROM "student_assignment";
--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "student_leave_scope_stx" (dependencies, ndistinct) ON "inst_cd", "acdm_cd" FROM "student_leave";
--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "early_pickup_scope_stx" (dependencies, ndistinct) ON "inst_cd", "acdm_cd" FROM "early_pickup";
--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "member_pickup_scope_stx" (dependencies, ndistinct) ON "inst_cd", "acdm_cd" FROM "member_pickup";
--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "employee_attendance_scope_stx" (dependencies, ndistinct) ON "inst_cd", "acdm_cd" FROM "employee_attendance";
--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "employee_timetable_scope_stx" (dependencies, ndistinct) ON "inst_cd", "acdm_cd" FROM "employee_timetable";
--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "section_timetable_scope_stx" (dependencies, ndistinct) ON "inst_cd", "acdm_cd" FROM "section_timetable";
--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "fee_scope_stx" (dependencies, ndistinct) ON "inst_cd", "acdm_cd" FROM "fee";
--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "fee_followup_scope_stx" (dependencies, ndistinct) ON "inst_cd", "acdm_cd" FROM "fee_followup";
--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "fee_collection_bill_scope_stx" (dependencies, ndistinct) ON "inst_cd", "acdm_cd" FROM "fee_collection_bill";
--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "fee_collection_line_scope_stx" (dependencies, ndistinct) ON "inst_cd", "acdm_cd" FROM "fee_collection_line";
--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "cancel_fee_scope_stx" (dependencies, ndistinct) ON "inst_cd", "acdm_cd" FROM "cancel_fee";
--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "wallet_transaction_scope_stx" (dependencies, ndistinct) ON "inst_cd", "acdm_cd" FROM "wallet_transaction";
--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "student_discount_scope_stx" (dependencies, ndistinct) ON "inst_cd", "acdm_cd" FROM "student_discount";
--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "online_payment_request_scope_stx" (dependencies, ndistinct) ON "inst_cd", "acdm_cd" FROM "online_payment_request";
--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "expense_scope_stx" (dependencies, ndistinct) ON "inst_cd", "acdm_cd" FROM "expense";
--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "bus_mapping_scope_stx" (dependencies, ndistinct) ON "inst_cd", "acdm_cd" FROM "bus_mapping";
--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "student_attendance_scope_stx" (dependencies, ndistinct) ON "inst_cd", "acdm_cd" FROM "student_attendance";
--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "student_interchange_scope_stx" (dependencies, ndistinct) ON "inst_cd", "acdm_cd" FROM "student_interchange";
--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "student_mark_scope_stx" (dependencies, ndistinct) ON "inst_cd", "acdm_cd" FROM "student_mark";
