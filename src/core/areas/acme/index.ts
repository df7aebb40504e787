/** Doctor group `acme`: its modules load only when its checks are asked for. */
import { lazyArea } from '../../doctor/area.js';

export const area = lazyArea('acme', 'ACME server', [() => import('./checks.js')]);
