// The browsers the page tests run in, behind one small interface (the calls
// web-play-test.js makes, in Playwright's shape): Chromium through playwright-core, and
// Debian's Firefox ESR through puppeteer-core over WebDriver BiDi (no geckodriver). A test
// asks for `launch(name)`; for Firefox each page is wrapped so that the same calls work.
'use strict';

async function launchChromium() {
  const { chromium } = require('playwright-core');
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

// A puppeteer page with the Playwright calls the tests use.
function playwrightShaped(page) {
  return {
    on: (event, fn) => page.on(event, fn),
    goto: (url) => page.goto(url),
    url: () => page.url(),
    evaluate: (fn, arg) => page.evaluate(fn, arg),
    waitForFunction: (fn, arg, options) => page.waitForFunction(fn, { timeout: (options || {}).timeout || 30000, polling: 50 }, arg),
    waitForTimeout: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    // The element's own click: puppeteer's click aims at the element's centre after
    // scrolling it into view, and in the move list (which scrolls itself) that hit the
    // move above the one aimed at.
    click: (selector) => page.$eval(selector, (el) => el.click()),
    selectOption: (selector, value) => page.select(selector, value),
    // Setting the value at once: typing a 180 KB KIF key by key would take minutes.
    fill: (selector, text) => page.$eval(selector, (el, value) => {
      el.value = value;
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }, text),
    keyboard: page.keyboard,
    mouse: page.mouse,
    screenshot: (options) => page.screenshot(options),
  };
}

async function launchFirefox() {
  const puppeteer = require('puppeteer-core');
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: process.env.FIREFOX || '/usr/bin/firefox-esr',
    headless: true,
  });
  return {
    newPage: async (options) => {
      const page = await browser.newPage();
      const viewport = (options || {}).viewport;
      if (viewport) await page.setViewport(viewport);
      return playwrightShaped(page);
    },
    close: () => browser.close(),
  };
}

exports.launch = (name) => (name === 'firefox' ? launchFirefox() : launchChromium());
