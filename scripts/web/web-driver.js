// Opens a page in headless Chromium (Debian's /usr/bin/chromium, driven by the npm package
// playwright-core: no browser download), waits until its title is `done` or `failed`, and
// prints its `window.RESULT` as JSON; the console's errors go to stderr.
// With WIDTH, it opens the page at that width instead and prints how wide the page is
// ({"scrollWidth": N}) once it has loaded: nothing may make a page wider than its screen.
// usage: node scripts/web/web-driver.js URL [TIMEOUT_MS] [WIDTH]   (NODE_PATH: where playwright-core is)
const { chromium } = require('playwright-core');

(async () => {
  const [url, timeout, width] = [process.argv[2], +(process.argv[3] || 60000), +(process.argv[4] || 0)];
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const page = await browser.newPage(width ? { viewport: { width, height: 900 } } : {});
  page.on('console', (m) => { if (m.type() === 'error' && !/favicon|404/.test(m.text())) console.error('console:', m.text()); });
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(url);
  if (width) {
    console.log(JSON.stringify({ scrollWidth: await page.evaluate(() => document.documentElement.scrollWidth) }));
    await browser.close();
    return;
  }
  await page.waitForFunction(() => document.title === 'done' || document.title === 'failed', null, { timeout });
  console.log(JSON.stringify(await page.evaluate(() => window.RESULT)));
  await browser.close();
})().catch((e) => { console.error(String(e)); process.exit(1); });
