import { ActionIcon, Tooltip } from '@mantine/core';
import { IconMessage } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';

// The dialog's code comes with the first hover, focus or click: the header's button stays light on the first load.
const loadDialog = () => import('./message-compose-dialog');
const ComposeDialog = lazy(() => loadDialog().then((m) => ({ default: m.ComposeDialog })));

/**
 * Direct message to another staff member of the current institute: pick the colleague from a searchable list
 * (names only, from the server), type, Enter or Send. The addressee's open pages show it as a toast.
 */
export function MessageComposeButton({ compact }: { compact: boolean }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const label = t('dm.compose', { defaultValue: 'Send a message' });
  return (
    <>
      <Tooltip label={label} disabled={compact}>
        <ActionIcon
          variant="subtle"
          size={compact ? 'md' : 'lg'}
          aria-label={label}
          onClick={() => setOpened(true)}
          onPointerEnter={() => void loadDialog()}
          onFocus={() => void loadDialog()}
          data-testid="message-compose"
        >
          <IconMessage size={20} stroke={1.6} />
        </ActionIcon>
      </Tooltip>
      {opened && (
        <Suspense fallback={null}>
          <ComposeDialog onClose={() => setOpened(false)} fullScreen={compact} />
        </Suspense>
      )}
    </>
  );
}

