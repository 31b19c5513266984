/** The user's page shortcuts in the header (filled in by the quick menu work). */
export function QuickMenuBar({ compact }: { compact: boolean }) {
  void compact;
  return null;
}
