// The compose dialog, loaded on the first click (or hover) of the header's message button: the Textarea,
// the colleague search and the recent list stay off the first load.
import { Button, Divider, Group, Modal, ScrollArea, Select, Stack, Text, Textarea } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../lib/format';
import { http, HttpError } from '../lib/http-client';
import { SOCKET_FAILURE_MESSAGE } from '../lib/realtime-socket';
import { useSession } from '../lib/session-store';
import { toast } from '../lib/toast';

/** Mirrors the server's limit (message.handler.ts MESSAGE_MAX). */
const MESSAGE_MAX = 500;

interface Colleague {
  usr_cd: number;
  usr_full_nm: string;
}

interface StoredMessage {
  dm_cd: number;
  dm_from_usr_cd: number;
  from_nm: string;
  to_nm: string;
  dm_txt: string;
  dm_sent_at: string;
}

interface SendResult {
  to_nm: string;
  delivered: boolean;
}

export function ComposeDialog({ onClose, fullScreen }: { onClose: () => void; fullScreen: boolean }) {
  const { t } = useTranslation();
  const { institute, user } = useSession();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const [to, setTo] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  // After a choice the search box shows the chosen name: that is not a new search.
  const chosenName = useColleagueName(to);
  const q = to && debounced === chosenName ? '' : debounced;
  const colleagues = useQuery({
    queryKey: ['message-colleagues', institute?.inst_cd, q],
    queryFn: ({ signal }) => http.get<Colleague[]>('/api/message/colleagues', { signal, query: { q: q || undefined }, silent: true }),
    staleTime: 60_000,
  });
  // What reached me (also while my pages were closed) and what I sent: the last few.
  const recent = useQuery({
    queryKey: ['my-messages', user?.usr_cd],
    queryFn: ({ signal }) => http.get<StoredMessage[]>('/api/message/', { signal, silent: true }),
    staleTime: 0,
  });
  const data = (colleagues.data ?? []).map((c) => ({ value: String(c.usr_cd), label: c.usr_full_nm }));
  namesSeen(colleagues.data ?? []);

  const send = async () => {
    if (sending) return;
    if (!to) return setError(t('dm.choose_colleague', { defaultValue: 'Choose the colleague to send the message to.' }));
    if (text.trim() === '') return setError(t('dm.type_message', { defaultValue: 'Type the message.' }));
    setSending(true);
    setError(null);
    try {
      const r = await http.post<SendResult>('/api/message/', { to: Number(to), message: text }, { silent: true });
      if (r.delivered) toast.success(t('dm.sent', { defaultValue: 'Message sent to {{name}}.', name: r.to_nm }));
      // Stored, but no page of the addressee is open to show it now (spec section 7's failure toast).
      else toast.danger(SOCKET_FAILURE_MESSAGE);
      onClose();
    } catch (err) {
      if (err instanceof HttpError && err.cancelled) return;
      setError(err instanceof Error && err.message ? err.message : SOCKET_FAILURE_MESSAGE);
    } finally {
      setSending(false);
    }
  };
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends; Shift+Enter starts a new line.
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    }
  };

  return (
    <Modal opened onClose={onClose} title={t('dm.compose', { defaultValue: 'Send a message' })} fullScreen={fullScreen} centered>
      <Stack gap="sm">
        <Select
          label={t('dm.to', { defaultValue: 'To' })}
          placeholder={t('dm.search_colleague', { defaultValue: 'Search a colleague' })}
          searchable
          data={data}
          value={to}
          onChange={(v) => {
            setTo(v);
            setError(null);
          }}
          searchValue={search}
          onSearchChange={setSearch}
          filter={({ options }) => options}
          nothingFoundMessage={colleagues.isFetching ? t('common.loading', { defaultValue: 'Loading...' }) : t('dm.no_colleague', { defaultValue: 'No colleague found' })}
          data-autofocus
          data-testid="message-to"
        />
        <Textarea
          label={t('dm.message', { defaultValue: 'Message' })}
          value={text}
          onChange={(e) => {
            setText(e.currentTarget.value);
            setError(null);
          }}
          onKeyDown={onKey}
          maxLength={MESSAGE_MAX}
          autosize
          minRows={3}
          maxRows={8}
          data-testid="message-text"
        />
        <Group justify="space-between" wrap="nowrap">
          <Text size="xs" c="dimmed">
            {t('dm.enter_hint', { defaultValue: 'Enter sends, Shift+Enter for a new line.' })} {text.length}/{MESSAGE_MAX}
          </Text>
          <Button onClick={() => void send()} loading={sending} data-testid="message-send">
            {t('dm.send', { defaultValue: 'Send' })}
          </Button>
        </Group>
        {error && (
          <Text c="red" size="sm" role="alert">
            {error}
          </Text>
        )}
        {(recent.data?.length ?? 0) > 0 && (
          <>
            <Divider label={t('dm.recent', { defaultValue: 'Recent messages' })} labelPosition="left" />
            <ScrollArea.Autosize mah={220} data-testid="message-recent">
              <Stack gap={6}>
                {recent.data!.slice(0, 10).map((m) => {
                  const mine = m.dm_from_usr_cd === user?.usr_cd;
                  return (
                    <div key={m.dm_cd}>
                      <Text size="xs" c="dimmed">
                        {mine ? t('dm.to_whom', { defaultValue: 'To {{name}}', name: m.to_nm }) : t('dm.from_whom', { defaultValue: 'From {{name}}', name: m.from_nm })} ·{' '}
                        {formatDateTime(m.dm_sent_at)}
                      </Text>
                      <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                        {m.dm_txt}
                      </Text>
                    </div>
                  );
                })}
              </Stack>
            </ScrollArea.Autosize>
          </>
        )}
      </Stack>
    </Modal>
  );
}

// The names of colleagues already listed, so the search box showing a chosen name is not taken for a search.
const seen = new Map<string, string>();
function namesSeen(list: readonly Colleague[]): void {
  for (const c of list) seen.set(String(c.usr_cd), c.usr_full_nm);
}
function useColleagueName(value: string | null): string {
  return value ? (seen.get(value) ?? '') : '';
}
