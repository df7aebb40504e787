/** Doctor group `inventory`: its modules load only when its checks are asked for. */
import { lazyArea } from '../../doctor/input.js';

export const area = lazyArea('inventory', 'Inventory', [() => import('./checks.js')]);
