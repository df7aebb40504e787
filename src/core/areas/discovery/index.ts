/** Doctor group `discovery`: its modules load only when its checks are asked for. */
import { lazyArea } from '../../doctor/area.js';

export const area = lazyArea('discovery', 'OIDC discovery (route53 auth kubernetes)', [() => import('./checks.js')]);
