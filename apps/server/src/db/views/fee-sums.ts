/**
 * A student's fee position summed over student_fee_line_v rows `x`: the one select list of the fee summaries,
 * whether a view sums one student at a time (fee management, paged) or a whole year at once (defaulters).
 * needtopay = the year's fees, discount = granted, fee_coll_amt = paid by active bills against them,
 * balAmt = what is left, pendingAmt = the part whose term's due date has passed, fee_dflt_since = the oldest
 * such due date still unpaid.
 */
export const feeSums = `
  coalesce(sum(x.amount), 0)::numeric(14, 2) AS needtopay,
  coalesce(sum(x.discount), 0)::numeric(14, 2) AS discount,
  coalesce(sum(x.paid), 0)::numeric(14, 2) AS fee_coll_amt,
  coalesce(sum(greatest(x.amount - x.discount - x.paid, 0)) FILTER (WHERE x.fee_grp_fee_exp_dt < current_date), 0)::numeric(14, 2) AS "pendingAmt",
  coalesce(sum(greatest(x.amount - x.discount - x.paid, 0)), 0)::numeric(14, 2) AS "balAmt",
  min(x.fee_grp_fee_exp_dt) FILTER (WHERE x.fee_grp_fee_exp_dt < current_date AND x.amount - x.discount - x.paid > 0) AS fee_dflt_since`;

/** The last active bill (the spec's "last bill") of the student row aliased `s`. */
export const lastBill = (s: string): string => `
LEFT JOIN LATERAL (
  SELECT b.fee_coll_bill_no, b.fee_coll_crt_dt FROM fee_collection_bill b
  WHERE b.stud_cd = ${s}.stud_cd AND b.fee_coll_sts = 'Active'
  ORDER BY b.fee_coll_bill_no DESC LIMIT 1
) lb ON true`;
