import { UsageError } from '../core/errors.js';
import type { CommandContext } from './types.js';

export async function run(_ctx: CommandContext): Promise<number> {
  throw new UsageError('cloudgate token is not implemented yet.');
}
