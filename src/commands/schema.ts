import { inventorySchema } from '../core/config/schema.js';
import type { CommandContext } from '../core/run-context.js';

export async function run(ctx: CommandContext): Promise<number> {
  ctx.stdout.write(JSON.stringify(inventorySchema(), null, 2) + '\n');
  return 0;
}
