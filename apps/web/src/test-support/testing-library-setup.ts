import { configure } from '@testing-library/react';

// findBy*/waitFor give up after 1 s by default: on a busy two-core machine a jsdom render of a dialog can take
// longer, and a time-out there says nothing about the screen. The test's own timeout still bounds a real hang.
configure({ asyncUtilTimeout: 10_000 });
