/**
 * The page paints the product's name from its HTML and stylesheet alone (index.html); the
 * app's JavaScript draws everything after that. So the entry script and the modules it
 * preloads are fetched at low priority: on a slow link the stylesheet is not kept waiting
 * behind some 120 kB of code, and tools that model a slow link (Lighthouse) no longer
 * count the code as holding up the first paint. Nothing is fetched later than before: the
 * requests still start as the page's head is read, and the service worker serves them
 * from the device once installed. See docs/performance.md, "A slow tablet and Lighthouse".
 */

const codeTag = /<(script|link)\b([^>]*)>/gi;

function isCode(tag: string, attributes: string): boolean {
  if (tag.toLowerCase() === 'script') return /\btype\s*=\s*["']?module(?=["'\s/>]|$)/i.test(attributes) && /\bsrc\s*=/i.test(attributes);
  return /\brel\s*=\s*["']?modulepreload(?=["'\s/>]|$)/i.test(attributes);
}

/** The page with `fetchpriority="low"` on each module script it loads and each module it preloads, unless it says otherwise. */
export function codeAfterFirstPaint(html: string): string {
  return html.replace(codeTag, (whole, tag: string, attributes: string) => {
    if (!isCode(tag, attributes) || /\bfetchpriority\s*=/i.test(attributes)) return whole;
    return `<${tag} fetchpriority="low"${attributes}>`;
  });
}
