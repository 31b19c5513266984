import { Avatar, Group, Menu, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconChevronDown, IconKey, IconLogout, IconUserCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { endSignOut, http, startSignOut } from '../lib/http-client';
import { disconnectRealtime } from '../lib/realtime-socket';
import { signOut, useSession } from '../lib/session-store';
import { ChangePasswordDialog } from './change-password-dialog';

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '') + (parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? '') : '')).toUpperCase() || '?';
}

/** Logout kills the token server side first; the local session goes whatever the answer (spec section 7). */
export async function logout(usrNm: string): Promise<void> {
  startSignOut();
  // The server closes this session's socket when the token dies; a long-poll still open then would be answered
  // 400 and show as a failed request in the console, so the socket goes first.
  disconnectRealtime();
  try {
    // Kept across the navigation to the login page, or the token would stay alive on the server.
    await http.get('/api/employee/logout/', { query: { usr_nm: usrNm }, silent: true, keepOnNavigation: true });
  } catch {
    // An expired token or a dead server must not keep anyone signed in on this browser.
  }
  signOut();
  endSignOut();
}

export function UserMenu({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSession();
  const [changingPassword, setChangingPassword] = useState(false);
  if (!user) return null;
  const name = user.usr_full_nm || user.usr_nm;
  const profile = t('common.profile', { defaultValue: 'My Profile' });

  return (
    <>
    <Menu position="bottom-end" width={220} withinPortal shadow="md">
      <Menu.Target>
        {/*
          Named by what it shows (name and role) and then what it opens, with no aria-label: a label that
          left out the shown name would not answer to it by voice control (WCAG 2.5.3).
        */}
        <UnstyledButton style={{ borderRadius: 8 }} px={4} py={2}>
          <Group gap={8} wrap="nowrap">
            {/* The initials repeat the name: a picture of it, not more text to read out. */}
            <Avatar size={32} radius="xl" color="campus" variant="filled" aria-hidden>
              {initials(name)}
            </Avatar>
            {!compact && (
              <>
                <div style={{ lineHeight: 1.1, maxWidth: 160 }}>
                  <Text size="sm" fw={600} truncate>
                    {name}
                  </Text>
                  <Text size="xs" c="dimmed" truncate>
                    {user.rl_nm}
                  </Text>
                </div>
                <IconChevronDown size={14} aria-hidden />
              </>
            )}
            <VisuallyHidden>{compact ? `${name}, ${profile}` : profile}</VisuallyHidden>
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          {t('common.signed_in_as', { defaultValue: 'Signed in as' })} {user.usr_nm}
        </Menu.Label>
        <Menu.Item component={Link} to={`/sms/employee/profile/update/${user.usr_cd}`} leftSection={<IconUserCircle size={16} />}>
          {profile}
        </Menu.Item>
        <Menu.Item leftSection={<IconKey size={16} />} onClick={() => setChangingPassword(true)}>
          {t('password.title', { defaultValue: 'Change Password' })}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item
          color="red"
          leftSection={<IconLogout size={16} />}
          onClick={() => {
            void logout(user.usr_nm).then(() => navigate('/login', { replace: true }));
          }}
        >
          {t('btn.sign_out', { defaultValue: 'Sign out' })}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
    <ChangePasswordDialog opened={changingPassword} onClose={() => setChangingPassword(false)} />
    </>
  );
}
