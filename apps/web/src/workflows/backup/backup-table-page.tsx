import { findPage } from '@campus/entities/pages';
import { findEntity } from '@campus/entities/registry';
import { useParams } from 'react-router';
import { EntityListPage } from '../../engine/entity-list-page';
import { parseMode } from '../../engine/entity-mode';
import { BackupRunsCard } from './backup-runs-card';

/** The backup page's table: the backup rows (the generic list), then their runs and 'Back up now'. */
export function BackupTablePage() {
  const params = useParams();
  const mode = parseMode(params['*']);
  const page = findPage('master', 'backup')!;
  const entity = findEntity('backup')!;
  return (
    <>
      <EntityListPage entity={entity} page={page} searchMode={mode?.kind === 'table' && mode.search} hasFormOverride={false} />
      <BackupRunsCard />
    </>
  );
}
