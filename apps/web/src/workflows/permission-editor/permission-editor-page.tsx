import {
  Alert,
  Badge,
  Box,
  Button,
  Checkbox,
  Chip,
  Group,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconArrowLeft, IconDeviceFloppy, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type JSX } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { http, HttpError } from '../../lib/http-client';
import { humanise } from '../../lib/page-title';
import { toast } from '../../lib/toast';
import { requiredFieldMessage } from '../../lib/validation';
import {
  buildSaveRows,
  emptyState,
  grantKey,
  grantOf,
  groupByModule,
  normaliseCrudPages,
  normaliseRows,
  ownOnlyAll,
  saveUrl,
  setAllowed,
  setAllowedMany,
  setButtons,
  setOwnOnly,
  setOwnOnlyAll,
  stateFromRows,
  type CrudPage,
  type EditorState,
  type StoredPermission,
  type Subject,
} from './permission-model';
import { SubjectSelect } from './subject-select';

type SubjectKind = Subject['kind'];

const TABLE_PATH = '/sms/user_permission/permission/table';

function positiveInt(v: string | null | undefined): number | null {
  if (!v || !/^[1-9]\d*$/.test(v)) return null;
  return Number(v);
}

/**
 * Who the update screen edits. ?usr_cd= / ?upg_cd= say it outright; otherwise update/{id} names a permission
 * row (what the list's Edit button sends) and the editor follows it to its user or group. When no such row
 * exists, the id is read as a usr_cd, the form the profile-style links use.
 */
function useInitialSubject(): { subject: Subject | null; resolving: boolean; isUpdate: boolean } {
  const params = useParams();
  const [search] = useSearchParams();
  const rest = params['*'] ?? '';
  const [mode, rawId] = rest.split('/');
  const isUpdate = mode === 'update';
  const id = isUpdate ? positiveInt(rawId) : null;
  const qUser = positiveInt(search.get('usr_cd'));
  const qGroup = positiveInt(search.get('upg_cd'));
  const explicit: Subject | null = qUser ? { kind: 'user', usr_cd: qUser } : qGroup ? { kind: 'group', upg_cd: qGroup } : null;

  const row = useQuery({
    queryKey: ['user-permission-row', id],
    enabled: !explicit && id !== null,
    retry: false,
    queryFn: ({ signal }) => http.get<StoredPermission>(`/api/user_permission/${id}`, { signal, silent: true }),
  });

  if (explicit) return { subject: explicit, resolving: false, isUpdate };
  if (id === null) return { subject: null, resolving: false, isUpdate };
  if (row.isPending) return { subject: null, resolving: true, isUpdate };
  const r = row.data;
  if (r?.usr_prms_usr_cd) return { subject: { kind: 'user', usr_cd: Number(r.usr_prms_usr_cd) }, resolving: false, isUpdate };
  if (r?.upg_cd) return { subject: { kind: 'group', upg_cd: Number(r.upg_cd) }, resolving: false, isUpdate };
  return { subject: { kind: 'user', usr_cd: id }, resolving: false, isUpdate };
}

export function PermissionEditorPage(): JSX.Element {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const initial = useInitialSubject();

  const [kind, setKind] = useState<SubjectKind>('user');
  const [subjectId, setSubjectId] = useState<number | null>(null);
  const [state, setState] = useState<EditorState>(emptyState);
  const [filter, setFilter] = useState('');
  const [saving, setSaving] = useState(false);
  const subjectRef = useRef<HTMLInputElement>(null);

  const initialSubject = initial.subject;
  const initialKey = initialSubject ? `${initialSubject.kind}:${initialSubject.kind === 'user' ? initialSubject.usr_cd : initialSubject.upg_cd}` : null;
  useEffect(() => {
    if (!initialKey) return;
    const [k, id] = initialKey.split(':');
    setKind(k === 'group' ? 'group' : 'user');
    setSubjectId(Number(id));
  }, [initialKey]);

  const pagesQuery = useQuery({
    queryKey: ['crudpage'],
    staleTime: 5 * 60_000,
    queryFn: ({ signal }) => http.get<unknown>('/api/user_permission/crudpage', { signal }),
  });
  const pages = useMemo(() => normaliseCrudPages(pagesQuery.data), [pagesQuery.data]);

  const rowsQuery = useQuery({
    queryKey: ['user-permission-rows', kind, subjectId],
    enabled: subjectId !== null,
    staleTime: 0,
    queryFn: ({ signal }) =>
      http.get<unknown>('/api/user_permission/', {
        signal,
        query: kind === 'user' ? { usr_prms_usr_cd: subjectId ?? undefined } : { upg_cd: subjectId ?? undefined },
      }),
  });

  // Each subject starts from its own stored rows; switching subject never carries grants across.
  useEffect(() => {
    if (subjectId === null) setState(emptyState());
    else if (rowsQuery.isSuccess && pagesQuery.isSuccess) setState(stateFromRows(normaliseRows<StoredPermission>(rowsQuery.data), pages));
  }, [subjectId, rowsQuery.isSuccess, rowsQuery.data, pagesQuery.isSuccess, pages]);

  const pageLabel = (p: CrudPage): string => t(`page.${p.module}.${p.page}`, { defaultValue: p.label });
  const moduleLabel = (m: string): string => t(`menu.${m}`, { defaultValue: humanise(m) });
  const buttonLabel = (b: string): string => t(`btn.${b}`, { defaultValue: humanise(b) });

  const needle = filter.trim().toLowerCase();
  const groups = groupByModule(
    needle ? pages.filter((p) => pageLabel(p).toLowerCase().includes(needle) || moduleLabel(p.module).toLowerCase().includes(needle)) : pages,
  );
  const allowedCount = pages.filter((p) => grantOf(state, grantKey(p.module, p.page)).allowed).length;
  const subjectLabel = kind === 'user' ? t('permission.employee', { defaultValue: 'Employee' }) : t('permission.group', { defaultValue: 'Permission Group' });

  async function save() {
    if (subjectId === null) {
      toast.danger(requiredFieldMessage({ control: 'select', label: subjectLabel }));
      subjectRef.current?.focus();
      return;
    }
    const subject: Subject = kind === 'user' ? { kind, usr_cd: subjectId } : { kind, upg_cd: subjectId };
    const rows = buildSaveRows(subject, state, pages);
    if (rows.length === 0) {
      toast.warning(t('permission.nothing_allowed', { defaultValue: 'Allow at least one page before saving.' }));
      return;
    }
    setSaving(true);
    try {
      await http.post(saveUrl(rows), rows);
      navigate(TABLE_PATH);
    } catch (e) {
      // The client has toasted the server's sentence; field details have no field on this screen.
      if (!(e instanceof HttpError)) throw e;
    } finally {
      setSaving(false);
    }
  }

  const loadingRows = subjectId !== null && (rowsQuery.isPending || !pagesQuery.isSuccess);

  return (
    <Stack gap="md" maw={1100}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <div>
          <Title order={1} size="h3">
            {t('permission.title', { defaultValue: 'Page permissions' })}
          </Title>
          <Text size="sm" c="dimmed">
            {t(initial.isUpdate ? 'mode.update' : 'mode.create', { defaultValue: initial.isUpdate ? 'Update' : 'Create' })} ·{' '}
            {t('page.user_permission.permission', { defaultValue: 'Permission' })}
          </Text>
        </div>
        <Group gap="xs">
          <Button variant="default" leftSection={<IconArrowLeft size={16} />} onClick={() => navigate(TABLE_PATH)}>
            {t('btn.cancel', { defaultValue: 'Cancel' })}
          </Button>
          <Button leftSection={<IconDeviceFloppy size={16} />} onClick={() => void save()} loading={saving} disabled={initial.resolving}>
            {t(initial.isUpdate ? 'btn.update' : 'btn.save', { defaultValue: initial.isUpdate ? 'Update' : 'Save' })}
          </Button>
        </Group>
      </Group>

      <Paper withBorder radius="md" p="md">
        <Stack gap="sm">
          <SegmentedControl
            value={kind}
            onChange={(v) => {
              setKind(v === 'group' ? 'group' : 'user');
              setSubjectId(null);
            }}
            disabled={initial.isUpdate}
            data={[
              { value: 'user', label: t('permission.employee', { defaultValue: 'Employee' }) },
              { value: 'group', label: t('permission.group', { defaultValue: 'Permission Group' }) },
            ]}
            w={{ base: '100%', xs: 'auto' }}
            style={{ alignSelf: 'flex-start' }}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            {initial.resolving ? (
              <Skeleton h={60} />
            ) : (
              <SubjectSelect
                key={kind}
                name="subject"
                inputRef={subjectRef}
                api={kind === 'user' ? '/api/employee/' : '/api/user_permission_group/'}
                label={subjectLabel}
                placeholder={
                  kind === 'user'
                    ? t('permission.choose_employee', { defaultValue: 'Choose an employee' })
                    : t('permission.choose_group', { defaultValue: 'Choose a group' })
                }
                value={subjectId}
                onChange={setSubjectId}
                disabled={initial.isUpdate}
                required
              />
            )}
            <TextInput
              label={t('permission.description', { defaultValue: 'Description' })}
              value={state.description}
              maxLength={300}
              onChange={(e) => {
                const description = e.currentTarget.value;
                setState((s) => ({ ...s, description }));
              }}
            />
          </SimpleGrid>
          <Switch
            label={t('permission.data_chk', { defaultValue: 'Access his students only' })}
            description={t('permission.data_chk_all', { defaultValue: 'On every page it can limit; set it per page below.' })}
            checked={ownOnlyAll(state, pages)}
            disabled={subjectId === null}
            onChange={(e) => {
              const on = e.currentTarget.checked;
              setState((s) => setOwnOnlyAll(s, pages, on));
            }}
          />
        </Stack>
      </Paper>

      <Paper withBorder radius="md" p="md">
        <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
          <Group gap="xs">
            <Text fw={650}>{t('permission.page', { defaultValue: 'Page' })}</Text>
            <Badge variant="light">
              {allowedCount} / {pages.length}
            </Badge>
          </Group>
          <TextInput
            size="xs"
            w={{ base: '100%', xs: 240 }}
            placeholder={t('permission.filter', { defaultValue: 'Filter pages' })}
            leftSection={<IconSearch size={14} />}
            value={filter}
            onChange={(e) => setFilter(e.currentTarget.value)}
          />
        </Group>

        {pagesQuery.isError && <Alert color="red">{t('errors.generic', { defaultValue: 'Internal server error, Please try again later.' })}</Alert>}
        {subjectId === null && (
          <Alert variant="light" mb="sm">
            {t('permission.none_selected', { defaultValue: 'Choose an employee or a group first.' })}
          </Alert>
        )}
        {pagesQuery.isPending || loadingRows ? (
          <Stack gap="xs">
            {Array.from({ length: 6 }, (_, i) => (
              <Skeleton key={i} h={40} />
            ))}
          </Stack>
        ) : (
          <Stack gap="lg">
            {groups.map((g) => {
              const allowedInGroup = g.pages.filter((p) => grantOf(state, grantKey(p.module, p.page)).allowed).length;
              return (
                <Box key={g.module}>
                  <Group justify="space-between" py={6} style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
                    <Checkbox
                      label={<Text fw={650}>{moduleLabel(g.module)}</Text>}
                      checked={allowedInGroup === g.pages.length}
                      indeterminate={allowedInGroup > 0 && allowedInGroup < g.pages.length}
                      disabled={subjectId === null}
                      onChange={(e) => {
                        const on = e.currentTarget.checked;
                        setState((s) => setAllowedMany(s, g.pages, on));
                      }}
                    />
                    <Text size="xs" c="dimmed">
                      {allowedInGroup} / {g.pages.length}
                    </Text>
                  </Group>
                  <Stack gap={0}>
                    {g.pages.map((p) => {
                      const grant = grantOf(state, grantKey(p.module, p.page));
                      const ownOnly = state.ownOnly[grantKey(p.module, p.page)] === true;
                      const ownOnlyLabel = t('permission.own_only', { defaultValue: 'His students only' });
                      return (
                        <Group
                          key={p.page}
                          justify="space-between"
                          align="center"
                          wrap="wrap"
                          gap="xs"
                          py={8}
                          pl={{ base: 0, xs: 'lg' }}
                          style={{ borderBottom: '1px solid var(--mantine-color-gray-1)' }}
                        >
                          <Group gap="md" wrap="nowrap">
                            <Checkbox
                              miw={{ base: 170, sm: 200 }}
                              label={pageLabel(p)}
                              title={t('permission.allowed', { defaultValue: 'Allowed' })}
                              checked={grant.allowed}
                              disabled={subjectId === null}
                              onChange={(e) => {
                                const on = e.currentTarget.checked;
                                setState((s) => setAllowed(s, p, on));
                              }}
                            />
                            {/* Greyed out where the page's rows belong to no student; a stale tick there can still be cleared. */}
                            <Tooltip label={p.dataChkNote ?? ''} disabled={p.dataChk} multiline w={260} withArrow>
                              <Box component="span" data-own-only={`${p.module}/${p.page}`}>
                                <Checkbox
                                  size="xs"
                                  label={ownOnlyLabel}
                                  aria-label={`${pageLabel(p)}: ${ownOnlyLabel}`}
                                  checked={ownOnly}
                                  disabled={subjectId === null || (!p.dataChk && !ownOnly)}
                                  error={!p.dataChk && ownOnly ? p.dataChkNote : undefined}
                                  onChange={(e) => {
                                    const on = e.currentTarget.checked;
                                    setState((s) => setOwnOnly(s, p, on));
                                  }}
                                />
                              </Box>
                            </Tooltip>
                          </Group>
                          <Chip.Group
                            multiple
                            value={grant.buttons}
                            onChange={(buttons) => setState((s) => setButtons(s, p, buttons))}
                          >
                            <Group gap={6} wrap="wrap" aria-label={`${pageLabel(p)} ${t('permission.buttons', { defaultValue: 'Buttons' })}`}>
                              {p.buttons.map((b) => (
                                <Chip key={b} value={b} size="xs" variant="outline" disabled={subjectId === null}>
                                  {buttonLabel(b)}
                                </Chip>
                              ))}
                            </Group>
                          </Chip.Group>
                        </Group>
                      );
                    })}
                  </Stack>
                </Box>
              );
            })}
          </Stack>
        )}
      </Paper>
    </Stack>
  );
}
