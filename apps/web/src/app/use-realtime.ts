import { useEffect } from 'react';
import { connectRealtime, disconnectRealtime } from '../lib/realtime-socket';
import { useSession } from '../lib/session-store';

/** One socket per signed-in session, opened with the shell and closed at sign-out. */
export function useRealtime(): void {
  const { user } = useSession();
  const token = user?.usr_token;
  useEffect(() => {
    if (!token) return undefined;
    connectRealtime();
    return () => disconnectRealtime();
  }, [token]);
}
