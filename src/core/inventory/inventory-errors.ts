import { UsageError } from '../errors.js';

/** An inventory path that is not a regular file or folder (a pipe, a device): exit 2, never a hang. */
export class InventoryInputError extends UsageError {}
