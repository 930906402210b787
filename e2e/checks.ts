// What journeys check and keep besides their own steps: no serious axe finding, and screenshots.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/** A full-page screenshot into e2e/.artifacts/<name>.png, animations stopped. */
export const shot = (page: Page, name: string) =>
  page.screenshot({ path: `e2e/.artifacts/${name}.png`, fullPage: true, animations: 'disabled' });

/** No serious or critical WCAG 2.1 A/AA violation on the page as it is now; `label` names it. */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious, `${label}\n${serious.join('\n')}`).toEqual([]);
}
