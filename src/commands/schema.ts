import { inventorySchema } from '../core/config/schema.js';
import { resolveProfile } from '../core/config/platform-names.js';
import { str, type CommandContext } from '../core/run-context.js';

export async function run(ctx: CommandContext): Promise<number> {
  const names = resolveProfile(str(ctx.flags, 'names'), [], 'the schema');
  ctx.stdout.write(JSON.stringify(inventorySchema(names), null, 2) + '\n');
  return 0;
}
