import { EXIT } from '../core/errors.js';
import { parseObjectRef } from '../core/kube/object-ref.js';
import { certificateStatus, statusLines } from '../core/areas/kube/status-certificate.js';
import type { CommandContext } from '../core/run-context.js';
import type { FlagsOf } from '../cli-flags.js';
import { print, withCluster } from './kube-tool.js';

export async function run(ctx: CommandContext, flags: FlagsOf<'status'>, operands: readonly string[]): Promise<number> {
  const ref = parseObjectRef(operands[0] ?? '', 'Certificate', 'cloudgate status certificate openstack/keystone-api');
  return withCluster(ctx, flags, async (kube) => {
    const status = await certificateStatus(kube, ref);
    print(ctx, flags.json, status, () => statusLines(status));
    return status.verdict.status === 'ok' ? EXIT.ok : EXIT.findings;
  });
}
