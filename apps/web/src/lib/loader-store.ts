import { useSyncExternalStore } from 'react';

/** Count of in-flight requests that show the global loading indicator (spec section 9). */
let pending = 0;
const listeners = new Set<() => void>();

function emit(): void {
  for (const l of listeners) l();
}

export function loaderStart(): void {
  pending += 1;
  if (pending === 1) emit();
}

export function loaderStop(): void {
  if (pending === 0) return;
  pending -= 1;
  if (pending === 0) emit();
}

/** The global handler "stops all loaders" (spec section 8), e.g. when pending requests are cancelled. */
export function loaderStopAll(): void {
  if (pending === 0) return;
  pending = 0;
  emit();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const isLoading = (): boolean => pending > 0;

export function useGlobalLoading(): boolean {
  return useSyncExternalStore(subscribe, isLoading, isLoading);
}
