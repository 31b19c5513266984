import { ActionIcon, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPlus, IconX } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { HttpError, http } from '../lib/http-client';
import { serverMessage } from '../lib/http-rules';
import { toast } from '../lib/toast';
import { currentPage, iconOf, QUICK_MENU_KEY, type Shortcut } from './quick-menu-bar';

/*
 * The quick menu's editor, in a chunk of its own: opened now and then, so the header that every page loads
 * does not carry it.
 */

/** The small dialog: add the current page, remove or move shortcuts, then save the list in one call. */
export function QuickMenuEditor({ shortcuts, onClose }: { shortcuts: Shortcut[]; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const { pathname } = useLocation();
  const [order, setOrder] = useState<Shortcut[]>(shortcuts);
  const here = currentPage(pathname, t);
  const already = here ? shortcuts.some((s) => s.qm_pg_pth === here.path) : false;
  const failed = (err: unknown) => {
    const message = err instanceof HttpError ? serverMessage(err.body) : undefined;
    toast.danger(message ?? t('quick_menu.failed', { defaultValue: 'The quick menu could not be saved.' }));
  };

  const add = useMutation({
    mutationFn: (p: { path: string; name: string }) => http.post<Shortcut>('/api/quick_menu/', { qm_pg_nm: p.name, qm_pg_pth: p.path }, { silent: true }),
    onSuccess: async (row) => {
      setOrder((o) => [...o, row]);
      await qc.invalidateQueries({ queryKey: QUICK_MENU_KEY });
      toast.success(t('quick_menu.added', { defaultValue: 'Added to your quick menu.' }));
    },
    onError: failed,
  });
  const save = useMutation({
    mutationFn: (codes: number[]) => http.put('/api/quick_menu/mine', { order: codes }, { silent: true }),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: QUICK_MENU_KEY });
      toast.success(t('quick_menu.saved', { defaultValue: 'Your quick menu is saved.' }));
      onClose();
    },
    onError: failed,
  });

  const move = (i: number, by: number) =>
    setOrder((o) => {
      const next = [...o];
      const [s] = next.splice(i, 1);
      next.splice(i + by, 0, s);
      return next;
    });

  return (
    <Modal opened onClose={onClose} title={t('quick_menu.edit', { defaultValue: 'Edit quick menu' })} size="md">
      <Stack gap="sm">
        {here && (
          <Button
            variant="light"
            leftSection={<IconPlus size={16} />}
            disabled={already || order.some((s) => s.qm_pg_pth === here.path)}
            loading={add.isPending}
            onClick={() => add.mutate(here)}
            data-testid="quick-menu-add"
          >
            {already || order.some((s) => s.qm_pg_pth === here.path)
              ? t('quick_menu.already', { defaultValue: 'This page is in your quick menu' })
              : t('quick_menu.add_page', { defaultValue: 'Add this page: {{name}}', name: here.name })}
          </Button>
        )}
        {order.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('quick_menu.empty', { defaultValue: 'No shortcuts yet.' })}
          </Text>
        )}
        {order.map((s, i) => {
          const I = iconOf(s.qm_pg_icn);
          return (
            <Group key={s.qm_cd} justify="space-between" wrap="nowrap" gap="xs" data-testid="quick-menu-row">
              <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
                <I size={18} stroke={1.6} style={{ flexShrink: 0 }} />
                <Text size="sm" truncate>
                  {s.qm_pg_nm}
                </Text>
              </Group>
              <Group gap={2} wrap="nowrap">
                <ActionIcon variant="subtle" color="gray" disabled={i === 0} onClick={() => move(i, -1)} aria-label={t('quick_menu.up', { defaultValue: 'Move up' })}>
                  <IconArrowUp size={16} />
                </ActionIcon>
                <ActionIcon variant="subtle" color="gray" disabled={i === order.length - 1} onClick={() => move(i, 1)} aria-label={t('quick_menu.down', { defaultValue: 'Move down' })}>
                  <IconArrowDown size={16} />
                </ActionIcon>
                <ActionIcon variant="subtle" color="red" onClick={() => setOrder((o) => o.filter((x) => x.qm_cd !== s.qm_cd))} aria-label={t('quick_menu.remove', { defaultValue: 'Remove {{name}}', name: s.qm_pg_nm })}>
                  <IconX size={16} />
                </ActionIcon>
              </Group>
            </Group>
          );
        })}
        <Group justify="flex-end" gap="xs" mt="xs">
          <Button variant="default" onClick={onClose}>
            {t('btn.cancel', { defaultValue: 'Cancel' })}
          </Button>
          <Button loading={save.isPending} onClick={() => save.mutate(order.map((s) => s.qm_cd))} data-testid="quick-menu-save">
            {t('btn.save', { defaultValue: 'Save' })}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
