/** The bell: the signed-in user's notifications (filled in by the notifications work). */
export function NotificationBell({ compact }: { compact: boolean }) {
  void compact;
  return null;
}
