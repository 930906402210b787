// What journeys check and keep besides their own steps: no serious axe finding, and screenshots.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/**
 * A full-page screenshot into e2e/.artifacts/<name>.png, animations stopped; the page must not
 * scroll sideways (a table wider than the screen scrolls inside its own region).
 */
export async function shot(page: Page, name: string): Promise<void> {
  // Two frames painted first: after a viewport change the layout (and a chart's resize) settles.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  await expectNoSidewaysScroll(page, name);
  // A capture takes a second or two; one that has not returned in 30 s will not (say so then,
  // not at the test's own timeout).
  await page.screenshot({
    path: `e2e/.artifacts/${name}.png`,
    fullPage: true,
    animations: 'disabled',
    timeout: 30_000,
  });
}

/** The document is no wider than the viewport; else names the elements that stick out. */
async function expectNoSidewaysScroll(page: Page, label: string): Promise<void> {
  const sticking = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= width) return [];
    // What sticks out past the viewport and is not clipped by a scrolling ancestor that contains
    // it (an absolutely positioned element escapes a static scroller: the usual culprit).
    const escapes = (el: Element): boolean => {
      let positioned = ['absolute', 'fixed'].includes(getComputedStyle(el).position);
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const style = getComputedStyle(a);
        if (style.overflowX !== 'visible' && (!positioned || style.position !== 'static')) return false;
        if (positioned && style.position !== 'static') positioned = false;
      }
      return true;
    };
    const out = [...document.querySelectorAll('body *')].filter(
      (el) => el.getBoundingClientRect().right > width + 1 && escapes(el),
    );
    return (out.length ? out : [document.documentElement])
      .slice(0, 5)
      .map(
        (el) =>
          `<${el.tagName.toLowerCase()} class="${el.getAttribute('class') ?? ''}"> ${(el.textContent ?? '').slice(0, 40)}`,
      );
  });
  expect(sticking, `${label}: the page scrolls sideways`).toEqual([]);
}

/**
 * No serious or critical WCAG 2.1 A/AA violation on the page as it is now; `label` names it. A page
 * reached by a client-side navigation gets its <title> when its streamed metadata arrives, which
 * on a loaded machine may be after the body: the scan waits for it (a page that never gets one
 * still fails, here).
 */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  // The pointer off the page: a button just clicked would be scanned in its hover colours.
  await page.mouse.move(0, 0);
  await expect.poll(() => page.title(), { message: `${label}: the page has no title` }).not.toBe('');
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious, `${label}\n${serious.join('\n')}`).toEqual([]);
}
