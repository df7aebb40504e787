import { KEY, type InkDriver } from './ink.js';

/** Moves the highlight to the choice whose label starts with `label`, then presses Enter. */
export async function choose(ui: InkDriver, label: string): Promise<void> {
  for (let i = 0; i < 10; i++) {
    if (
      ui
        .frame()
        .split('\n')
        .some((line) => line.startsWith(`> ${label}`))
    ) {
      await ui.press(KEY.enter);
      return;
    }
    await ui.press(KEY.down);
  }
  throw new Error(`No choice "${label}" on screen:\n${ui.frame()}`);
}

/**
 * The question currently asked: the variable it sets (the line under its title, in plain words), or
 * the title itself for a question that sets no variable of the table.
 */
export function question(ui: InkDriver): string {
  const lines = ui.frame().split('\n');
  const i = lines.findIndex((l) => / · question \d+ of \d+/.test(l));
  if (i < 0) return '';
  const variable = lines
    .slice(i + 2, i + 5)
    .map((l) => l.trim())
    .find((l) => /^(cluster_issuer|cloud_helm|openstack_helm|platform_ingress|atmosphere_ingress)[a-z0-9_]*$/.test(l));
  return variable ?? lines[i + 1].replace(/ \(optional\)$/, '').trim();
}
