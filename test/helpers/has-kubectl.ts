import { spawnSync } from 'node:child_process';

/** These tests drive the real kubectl; without it they are skipped, and the suite name says why. */
export const hasKubectl = spawnSync(process.env.CLOUDGATE_KUBECTL || 'kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;
export const needsKubectl = hasKubectl ? '' : ' [skipped: kubectl is not installed]';
