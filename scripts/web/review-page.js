// A game reviewed on the play page in headless Chromium (or Firefox: SHISHI_BROWSER=firefox),
// as a person does it: the KIF pasted and loaded, "Review the game" at the page's default
// search, then the first critical moment clicked. Prints {"seconds", "plies", "marks",
// "sides", "critical"}; with SCREENSHOT.png, a picture of the whole page at WIDTH px.
// usage: node scripts/web/review-page.js BASE_URL KIF_FILE [SCREENSHOT.png] [WIDTH]
const { launch } = require('./browsers.js');
const fs = require('fs');

(async () => {
  const [base, kifFile, shot, width] = process.argv.slice(2);
  const browser = await launch(process.env.SHISHI_BROWSER || 'chromium');
  const page = await browser.newPage({ viewport: { width: +(width || 1400), height: 900 } });
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(base + '/play/index.html');
  await page.waitForFunction(() => document.title === 'Shishi – ready', null, { timeout: 60000 });
  await page.fill('#paste', fs.readFileSync(kifFile, 'utf8'));
  await page.click('#load');
  await page.waitForFunction(() => window.SHISHI_PAGE.shown === 'null:0', null, { timeout: 30000 });
  await page.click('#review');
  await page.waitForFunction(() => window.SHISHI_PAGE.review && window.SHISHI_PAGE.review.summary
    && !window.SHISHI_PAGE.reviewing, null, { timeout: 1800000 });
  const critical = await page.evaluate(() => document.querySelectorAll('#critical button').length);
  if (critical) {
    await page.click('#critical button');
    await page.waitForFunction(() => document.getElementById('review-move').textContent !== '', null, { timeout: 30000 });
  }
  // The engine panel's first lines of the position shown.
  await page.waitForTimeout(2000);
  const out = await page.evaluate(() => ({
    seconds: window.SHISHI_PAGE.review.seconds,
    plies: window.SHISHI_PAGE.review.summary.plies,
    marks: [...document.querySelectorAll('#moves .mark')].map((m) => m.textContent).join(' '),
    sides: document.getElementById('review-sides').innerText,
    critical: document.getElementById('critical').innerText,
  }));
  console.log(JSON.stringify(out));
  if (shot) await page.screenshot({ path: shot, fullPage: true });
  await browser.close();
})().catch((e) => { console.error(String(e)); process.exit(1); });
