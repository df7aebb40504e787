declare const __CLOUDGATE_VERSION__: string;

/** cloudgate's version: the package's, set at build time; `0.0.0-dev` when run from source. */
export function cloudgateVersion(): string {
  return typeof __CLOUDGATE_VERSION__ === 'string' ? __CLOUDGATE_VERSION__ : '0.0.0-dev';
}
