import { HttpError } from './http-client';
import { silentStatuses } from './http-rules';
import { loaderStopAll } from './loader-store';
import { toast } from './toast';

/** Errors whose sentence would only confuse a clerk (spec section 8 names these two kinds). */
const IGNORED = [/service ?worker/i, /ExpressionChangedAfterItHasBeenChecked|changed after (it was )?checked/i];

/**
 * The spec's global handler as a decision: the toast an uncaught error deserves, or null. HTTP errors have
 * been toasted by the client already (and 401/404/405/504 stay silent); type errors are programming
 * faults, not something the user can act on.
 */
export function globalErrorMessage(error: unknown): string | null {
  if (error instanceof HttpError) return null;
  if (error && typeof error === 'object' && 'status' in error && silentStatuses.concat(401).includes(Number((error as { status: unknown }).status))) return null;
  if (error instanceof TypeError) return null;
  if (!(error instanceof Error) && (typeof error !== 'object' || error === null)) return null;
  const message = (error as { message?: unknown }).message;
  if (typeof message !== 'string' || message.trim() === '') return null;
  if (error instanceof DOMException && error.name === 'AbortError') return null;
  if (IGNORED.some((re) => re.test(message))) return null;
  return message;
}

export function handleGlobalError(error: unknown): void {
  loaderStopAll();
  const message = globalErrorMessage(error);
  if (message) toast.danger(message);
}

let installed = false;

export function installGlobalErrorHandler(): void {
  if (installed || typeof window === 'undefined') return;
  installed = true;
  window.addEventListener('error', (e) => handleGlobalError(e.error));
  window.addEventListener('unhandledrejection', (e) => handleGlobalError(e.reason));
}
