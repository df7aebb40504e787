/** Doctor group `kube`: its modules load only when its checks are asked for. */
import { lazyArea } from '../../doctor/area.js';

export const area = lazyArea('kube', 'Cluster (kubectl)', [() => import('./checks.js')]);
