/** Doctor group `signin`: its modules load only when its checks are asked for. */
import { lazyArea } from '../../doctor/input.js';

export const area = lazyArea('signin', 'Federated sign-in chain', [() => import('./checks.js')]);
