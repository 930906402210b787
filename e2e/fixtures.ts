// The journeys' `test`: Playwright's, with a page whose `goto` also waits until React has revealed
// what the server streamed (revealed()). Specs import `test` and `expect` from here.
import { test as base, expect, type Page } from '@playwright/test';

/**
 * Waits until every Suspense boundary the server streamed is in place. A page under a
 * `loading.tsx` (Arc's) arrives as a fallback plus the content in a hidden `<div id="S:…">`,
 * and React reveals that up to 300 ms later (it batches reveals). Until then the page's text
 * and test IDs exist twice, once hidden: `getByText`/`getByTestId` (which match hidden
 * elements, unlike `getByRole`) would find two and fail strict mode.
 */
export async function revealed(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('div[hidden][id^="S:"]'), undefined, { timeout: 10_000 });
}

export const test = base.extend({
  page: async ({ page }, provide) => {
    const goto = page.goto.bind(page);
    page.goto = async (...args: Parameters<Page['goto']>) => {
      const response = await goto(...args);
      await revealed(page);
      return response;
    };
    await provide(page);
  },
});

export { expect };
