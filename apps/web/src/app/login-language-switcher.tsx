import { NativeSelect } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { isLanguage, languageOptions, setLanguage, useLanguage } from '../lib/i18n';

/**
 * The sign-in page's language choice: the browser's own select rather than the shell's searchable one,
 * whose dropdown machinery (floating-ui, combobox) would be a third of the sign-in page's download.
 */
export function LoginLanguageSwitcher({ w }: { w: number }) {
  const { t } = useTranslation();
  const language = useLanguage();
  return (
    <NativeSelect
      aria-label={t('common.language', { defaultValue: 'Language' })}
      leftSection={<IconLanguage size={16} />}
      data={languageOptions.map((o) => ({ value: o.value, label: o.label }))}
      value={language}
      onChange={(e) => {
        const v = e.currentTarget.value;
        if (isLanguage(v)) setLanguage(v);
      }}
      size="xs"
      w={w}
      variant="filled"
    />
  );
}
