import { requireTool, skipNote } from './tools.js';

/**
 * These tests drive the real kubectl (or $CLOUDGATE_KUBECTL). Without it they fail under CI and are
 * skipped elsewhere, the suite name saying why.
 */
export const hasKubectl = requireTool('kubectl', 'kubernetes-client', { binary: process.env.CLOUDGATE_KUBECTL });
export const needsKubectl = skipNote(hasKubectl, process.env.CLOUDGATE_KUBECTL || 'kubectl', 'kubernetes-client');
