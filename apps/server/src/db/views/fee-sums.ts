/**
 * What is owed per due date, summed over student_fee_line_v rows `x` of one student grouped by the due date
 * (fee_position_due_calc_v): the fees, discounts, payments and what is still owed (each line's own
 * remainder, never below zero, so an overpaid line does not hide another's debt).
 */
export const dueSums = `
  x.fee_grp_fee_exp_dt AS due_dt,
  sum(x.amount)::numeric(14, 2) AS amount,
  sum(x.discount)::numeric(14, 2) AS discount,
  sum(x.paid)::numeric(14, 2) AS paid,
  sum(greatest(x.amount - x.discount - x.paid, 0))::numeric(14, 2) AS owed`;

/**
 * A student's stored fee position (the fee_position row) from their per-due-date rows `d`: needtopay =
 * the year's fees, discount = granted, fee_coll_amt = paid by active bills against them, bal_amt = what is
 * left, first_due_dt = the earliest due date with something still owed, whether or not it has passed.
 */
export const positionSums = `
  coalesce(sum(d.amount), 0)::numeric(14, 2) AS needtopay,
  coalesce(sum(d.discount), 0)::numeric(14, 2) AS discount,
  coalesce(sum(d.paid), 0)::numeric(14, 2) AS fee_coll_amt,
  coalesce(sum(d.owed), 0)::numeric(14, 2) AS bal_amt,
  min(d.due_dt) FILTER (WHERE d.owed > 0) AS first_due_dt`;

/** The last active bill (the spec's "last bill") of the student row aliased `s`. */
export const lastBill = (s: string): string => `
LEFT JOIN LATERAL (
  SELECT b.fee_coll_bill_no, b.fee_coll_crt_dt FROM fee_collection_bill b
  WHERE b.stud_cd = ${s}.stud_cd AND b.fee_coll_sts = 'Active'
  ORDER BY b.fee_coll_bill_no DESC LIMIT 1
) lb ON true`;

/**
 * The read-time part of a position (fee_position row aliased `p`): pendingAmt = what is owed on due dates
 * before today, fee_dflt_since = the earliest of them. 'Today' moves without a write, so these are not
 * stored: the stored first_due_dt tells whether anything is overdue (first_due_dt < today, an index range),
 * and the few per-due-date rows of the student give the overdue amount.
 */
export const overdueOf = (p: string): string => `
LEFT JOIN LATERAL (
  SELECT coalesce(sum(t.due_amt), 0)::numeric(14, 2) AS "pendingAmt" FROM fee_position_term t
  WHERE t.stud_cd = ${p}.stud_cd AND t.due_dt < current_date
) od ON true`;

/** fee_dflt_since of the fee_position row aliased `p`. */
export const defaultingSince = (p: string): string => `CASE WHEN ${p}.first_due_dt < current_date THEN ${p}.first_due_dt END`;
