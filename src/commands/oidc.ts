import { UsageError } from '../core/errors.js';
import type { CommandContext } from './types.js';

export async function run(_ctx: CommandContext): Promise<number> {
  throw new UsageError('cloudgate oidc is not implemented yet.');
}
