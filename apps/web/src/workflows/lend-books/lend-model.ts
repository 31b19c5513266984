/** The library desk's data: what the server answers and what the screen keeps between scans. */

export type HolderType = 'Student' | 'Employee';
export type DeskMode = 'issue' | 'return';

export interface HolderHit {
  usr_typ: HolderType;
  usr_cd: number;
  name: string;
  detail: string;
}

export interface HeldBook {
  bk_cd: number;
  bk_nm: string;
  bk_barcd: string | null;
  qty: number;
  due_dt: string | null;
  iss_dt: string | null;
  days_overdue: number;
}

export interface HolderBooks {
  holder: HolderHit;
  limit: number;
  held: number;
  due_default: string;
  books: HeldBook[];
}

export interface BookHit {
  bk_cd: number;
  bk_nm: string;
  bk_barcd: string | null;
  bk_qty: number;
  out: number;
  available: number;
}

/** One book on the desk, about to be issued or returned. */
export interface CartLine {
  bk_cd: number;
  bk_nm: string;
  bk_barcd: string | null;
  qty: number;
  /** Issue: copies on the shelf when looked up; return: copies the holder has out. */
  max: number;
}

/** A book scanned or picked: a new line, or one more copy of a line already there. */
export function addToCart(cart: readonly CartLine[], book: Omit<CartLine, 'qty'>): CartLine[] {
  const at = cart.findIndex((l) => l.bk_cd === book.bk_cd);
  if (at < 0) return [...cart, { ...book, qty: 1 }];
  return cart.map((l, i) => (i === at ? { ...l, qty: l.qty + 1 } : l));
}

export function setQty(cart: readonly CartLine[], bkCd: number, qty: number): CartLine[] {
  const n = Number.isInteger(qty) && qty >= 1 ? qty : 1;
  return cart.map((l) => (l.bk_cd === bkCd ? { ...l, qty: n } : l));
}

export const removeLine = (cart: readonly CartLine[], bkCd: number): CartLine[] => cart.filter((l) => l.bk_cd !== bkCd);

export const cartCopies = (cart: readonly CartLine[]): number => cart.reduce((a, l) => a + l.qty, 0);

/** Lines asking more than the shelf (issue) or the holder (return) has: the desk says so before the server does. */
export const overMax = (cart: readonly CartLine[]): CartLine[] => cart.filter((l) => l.qty > l.max);

export function deskBody(mode: DeskMode, holder: Pick<HolderHit, 'usr_typ' | 'usr_cd'>, cart: readonly CartLine[], due: string | null, key: string) {
  const base = { usr_typ: holder.usr_typ, usr_cd: holder.usr_cd, books: cart.map((l) => ({ bk_cd: l.bk_cd, qty: l.qty })) };
  // A return carries the attempt's key too: a retry after a lost answer must not take the books back twice.
  return mode === 'issue' ? { ...base, due_dt: due, idempotency_key: key } : { ...base, idempotency_key: key };
}

/** A scanner types the code and Enter; spaces around it are the scanner's, not the code's. */
export const scannedCode = (typed: string): string => typed.trim();
