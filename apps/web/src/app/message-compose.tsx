/** Direct message to another staff member (filled in by the messaging work). */
export function MessageComposeButton({ compact }: { compact: boolean }) {
  void compact;
  return null;
}
