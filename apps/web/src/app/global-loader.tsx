import { Box } from '@mantine/core';
import { useGlobalLoading } from '../lib/loader-store';
import classes from './global-loader.module.css';

/** The global loading indicator of spec section 9: a thin bar at the top while requests are in flight. */
export function GlobalLoader() {
  const loading = useGlobalLoading();
  return (
    <Box className={classes.track} data-loading={loading || undefined} role="progressbar" aria-busy={loading} aria-label="Loading" aria-hidden={!loading}>
      <div className={classes.bar} />
    </Box>
  );
}
