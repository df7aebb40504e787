/** Doctor group `tls`: its modules load only when its checks are asked for. */
import { lazyArea } from '../../doctor/area.js';

export const area = lazyArea('tls', 'Served certificates', [() => import('./checks.js')]);
