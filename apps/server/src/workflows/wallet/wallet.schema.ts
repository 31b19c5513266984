import { workflowInputSchema, type WorkflowButton } from '@campus/entities/define';
import { entity } from '@campus/entities/registry';
import { badRequest } from '../../lib/http-error';
import { toPaise } from '../../lib/paise';
import type { WalletTxnType } from './wallet-ledger';

/** The wallet page's three buttons: which movement each writes, and whether money comes in or goes out. */
export const walletMoves = {
  topup: { type: 'Top-up', sign: 1 },
  spend: { type: 'Spend', sign: -1 },
  refund: { type: 'Refund', sign: -1 },
} as const satisfies Record<string, { type: WalletTxnType; sign: 1 | -1 }>;

export type WalletMoveKind = keyof typeof walletMoves;

export interface WalletMoveInput {
  /** Whole paise, always positive: the movement's sign comes from the button. */
  paise: number;
  reason: string;
  idempotency_key: string;
}

function buttonOf(kind: WalletMoveKind): WorkflowButton {
  const b = entity('wallet').workflowButtons?.find((x) => x.button === kind);
  if (!b) throw new Error(`wallet declares no ${kind} button`);
  return b;
}

// The dialog's body by the button's own declaration (amount, reason, the opening's key): the browser checks it the same way.
const schemas = { topup: workflowInputSchema(buttonOf('topup')), spend: workflowInputSchema(buttonOf('spend')), refund: workflowInputSchema(buttonOf('refund')) };

/** The body of a top-up, spend or refund, or a 400 naming the first wrong input (all of them in details). */
export function parseWalletMove(kind: WalletMoveKind, body: unknown): WalletMoveInput {
  const parsed = schemas[kind].safeParse(body ?? {});
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => ({ field: String(i.path[0] ?? ''), message: i.message }));
    throw badRequest(details[0]?.message ?? 'Invalid request.', details);
  }
  const data = parsed.data as { amount: string; reason: string; idempotency_key: string };
  const paise = toPaise(data.amount);
  // The declaration's money field allows 0.00 (a fee may be free); a movement of nothing is no movement.
  if (paise <= 0) throw badRequest("'Amount' must be more than 0.", [{ field: 'amount', message: "'Amount' must be more than 0." }]);
  return { paise, reason: data.reason, idempotency_key: data.idempotency_key };
}
