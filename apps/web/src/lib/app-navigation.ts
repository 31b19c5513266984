/**
 * Lets non-React code (the HTTP client on 401, the session store on tampering) move the router without
 * importing it: the app registers the router's navigate once it exists.
 */

type Navigate = (to: string) => void;

let navigateFn: Navigate | null = null;

export function registerNavigate(fn: Navigate | null): void {
  navigateFn = fn;
}

export function navigateTo(to: string): void {
  if (navigateFn) navigateFn(to);
  else if (typeof window !== 'undefined') window.location.assign(to);
}
