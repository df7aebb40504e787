import { inventorySchema } from '../core/schema.js';
import type { CommandContext } from './types.js';

export async function run(ctx: CommandContext): Promise<number> {
  ctx.stdout.write(JSON.stringify(inventorySchema(), null, 2) + '\n');
  return 0;
}
