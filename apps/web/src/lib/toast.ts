import { notifications } from '@mantine/notifications';

/** Spec section 8: toasts last 3000 ms unless a caller says otherwise. */
export const TOAST_DURATION_MS = 3000;

export type ToastKind = 'danger' | 'success' | 'warning' | 'info';

const colors: Record<ToastKind, string> = { danger: 'red', success: 'teal', warning: 'yellow', info: 'blue' };
const titles: Record<ToastKind, string | undefined> = { danger: 'ERROR', success: undefined, warning: undefined, info: undefined };

export function showToast(kind: ToastKind, message: string, title?: string, durationMs = TOAST_DURATION_MS): void {
  notifications.show({
    // The same sentence from several parallel failures is shown once, not stacked.
    id: `${kind}:${message}`,
    color: colors[kind],
    title: title ?? titles[kind],
    message,
    autoClose: durationMs,
    withBorder: true,
  });
}

export const toast = {
  danger: (message: string, title?: string): void => showToast('danger', message, title),
  success: (message: string, title?: string): void => showToast('success', message, title),
  warning: (message: string, title?: string): void => showToast('warning', message, title),
  info: (message: string, title?: string): void => showToast('info', message, title),
};
