import { inventorySchema } from '../core/config/schema.js';
import { resolveProfile } from '../core/config/neutral-names.js';
import type { CommandContext } from '../core/run-context.js';
import type { FlagsOf } from '../cli-flags.js';

export async function run(ctx: CommandContext, flags: FlagsOf<'schema'>): Promise<number> {
  const names = resolveProfile(flags.names);
  ctx.stdout.write(JSON.stringify(inventorySchema(names), null, 2) + '\n');
  return 0;
}
