import { EXIT } from '../core/errors.js';
import { parseObjectRef } from '../core/kube/object-ref.js';
import { inspectionLines, inspectSecret } from '../core/areas/kube/inspect-secret.js';
import type { CommandContext } from '../core/run-context.js';
import type { FlagsOf } from '../cli-flags.js';
import { print, withCluster } from './kube-tool.js';

export async function run(
  ctx: CommandContext,
  flags: FlagsOf<'inspect'>,
  operands: readonly string[],
): Promise<number> {
  const ref = parseObjectRef(operands[0] ?? '', 'Secret', 'cloudgate inspect secret openstack/keystone-api-certs');
  return withCluster(ctx, flags, async (kube) => {
    const inspection = await inspectSecret(kube, ref);
    print(ctx, flags.json, inspection, () => inspectionLines(inspection));
    return inspection.status === 'fail' ? EXIT.findings : EXIT.ok;
  });
}
