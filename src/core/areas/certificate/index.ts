/** Doctor group `certificate`: its modules load only when its checks are asked for. */
import { lazyArea } from '../../doctor/area.js';

export const area = lazyArea('certificate', 'Certificate files', [() => import('./checks.js')]);
